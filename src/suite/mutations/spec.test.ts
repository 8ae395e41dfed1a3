import { describe, expect, it } from 'vitest';
import { mutateAnswer, mutateFrame, withMutation } from '../../clients/mutation.js';
import { compile, describeSpec, pathPattern } from './spec.js';

const answer = (text: string, status = 200) => ({ status, headers: { 'content-type': 'application/json' }, text });

describe('a registered mutation', () => {
  it('rewrites only the nth answer to its method and path pattern', () => {
    const m = compile({ on: { method: 'PUT', path: '/v1/*/*/chat/close', nth: 1 }, how: 'values' });
    const req = { method: 'PUT', path: '/v1/acme/support/chat/close' };
    expect(m.http?.(req, answer('{"success":true}'))).toBeUndefined();
    expect(m.http?.(req, answer('{"success":true}'))?.text).toBe('{"success":false}');
    expect(m.http?.({ method: 'POST', path: req.path }, answer('{}'))).toBeUndefined();
  });

  it('moves a status to the other class or to a neighbour, and empties or reorders a body', () => {
    const on = { method: 'GET', path: '/x', nth: 0 };
    expect(compile({ on, how: 'status-class' }).http?.({ method: 'GET', path: '/x' }, answer('{}', 401))?.status).toBe(200);
    expect(compile({ on, how: 'status-near' }).http?.({ method: 'GET', path: '/x' }, answer('{}', 401))?.status).toBe(403);
    expect(compile({ on, how: 'empty' }).http?.({ method: 'GET', path: '/x' }, answer('{"a":1}'))?.text).toBe('{}');
    expect(compile({ on, how: 'drop-item' }).http?.({ method: 'GET', path: '/x' }, answer('{"l":[1,2]}'))?.text).toBe('{"l":[1]}');
    expect(compile({ on, how: 'repeat-item' }).http?.({ method: 'GET', path: '/x' }, answer('{"l":[1,2]}'))?.text).toBe('{"l":[1,1,2]}');
    expect(compile({ on, how: 'drop-item' }).http?.({ method: 'GET', path: '/x' }, answer('{"a":1}'))).toBeUndefined();
  });

  it('drops, repeats or retypes the nth frame of a type on its socket only', () => {
    const frame = JSON.stringify({ type: 'EVENT_TYPE_X', payload: { n: 1 } });
    const drop = compile({ on: { socket: 'messaging', type: 'EVENT_TYPE_X', nth: 0 }, how: 'drop' });
    expect(drop.frame?.('voice', frame)).toBeUndefined();
    expect(drop.frame?.('messaging', frame)).toEqual([]);
    const retype = compile({ on: { socket: 'voice', type: 'EVENT_TYPE_X', nth: 0 }, how: 'retype' });
    expect(JSON.parse(retype.frame?.('voice', frame)?.[0] ?? '{}').type).toBe('EVENT_TYPE_X_MUTATED');
  });

  it('applies inside the armed scope only, and counts what it rewrote', async () => {
    const scope = { mutation: compile({ on: { method: 'GET', path: '/x', nth: 0 }, how: 'status-class' }), applied: 0 };
    expect(mutateAnswer('GET', 'http://h/x', answer('{}')).status).toBe(200);
    await withMutation(scope, async () => {
      expect(mutateAnswer('GET', 'http://h/x', answer('{}')).status).toBe(500);
    });
    expect(scope.applied).toBe(1);
    expect(mutateFrame('voice', '{"type":"answer"}', undefined)).toEqual(['{"type":"answer"}']);
  });

  it('names ids and the tenant as wildcards in path patterns, and says what it does', () => {
    expect(pathPattern('/v1/acme/support/conversations/c-8d1f2c7e', ['acme', 'support'])).toBe('/v1/*/*/conversations/*');
    expect(describeSpec({ on: { method: 'GET', path: '/x', nth: 0 }, how: 'empty' })).toBe('GET /x #1: body emptied');
  });
});
