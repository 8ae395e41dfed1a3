import { describe, expect, it } from 'vitest';
import { JsonTooDeep, jsonDepth, MAX_JSON_DEPTH, parseLimitedJson } from './limits.js';

describe('JSON depth limit', () => {
  it('counts nesting of objects and arrays, not brackets inside strings or escaped quotes', () => {
    expect(jsonDepth('{"a":[1,{"b":2}]}')).toBe(3);
    expect(jsonDepth('"[[[["')).toBe(0);
    expect(jsonDepth('{"a":"\\"[[["}')).toBe(1);
    expect(jsonDepth('42')).toBe(0);
  });

  it('parses JSON up to the limit and refuses one level more', () => {
    const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(parseLimitedJson(nested(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
    expect(() => parseLimitedJson(nested(MAX_JSON_DEPTH + 1))).toThrow(JsonTooDeep);
  });

  it('refuses a body nested 10,000 deep before parsing it, and still throws a SyntaxError for broken JSON', () => {
    expect(() => parseLimitedJson(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`)).toThrow(JsonTooDeep);
    expect(() => parseLimitedJson('{"a":')).toThrow(SyntaxError);
  });
});
