import { describe, expect, it } from 'vitest';
import { isSupportedSchema, type JsonSchema, validateJsonSchema } from './json-schema.js';

const page: JsonSchema = {
  type: 'object',
  properties: {
    greeting: { type: 'string', minLength: 1, maxLength: 20 },
    max_turns: { type: 'integer', minimum: 1, maximum: 100 },
    mode: { enum: ['day', 'night'] },
    hours: { type: 'object', properties: { open: { type: 'string', pattern: '^\\d{2}:\\d{2}$' } }, required: ['open'] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
  },
  additionalProperties: false,
};

describe('validateJsonSchema', () => {
  it('accepts a value that meets every keyword', () => {
    expect(validateJsonSchema(page, { greeting: 'Hi', max_turns: 5, mode: 'day', hours: { open: '09:00' }, tags: ['a'] })).toEqual([]);
  });

  it('names the path and the broken keyword of each violation', () => {
    const out = validateJsonSchema(page, { greeting: '', max_turns: 500, mode: 'dusk', hours: {}, tags: ['a', 2, 'c'], extra: true });
    expect(out).toEqual([
      { path: 'greeting', message: 'must have at least 1 characters' },
      { path: 'max_turns', message: 'must be <= 100' },
      { path: 'mode', message: 'must be one of ["day","night"]' },
      { path: 'hours.open', message: 'is required' },
      { path: 'tags', message: 'must have at most 2 items' },
      { path: 'tags.1', message: 'must be of type string' },
      { path: 'extra', message: 'is not allowed' },
    ]);
  });

  it('tells integer from number', () => {
    expect(validateJsonSchema({ type: 'integer' }, 1.5)).toEqual([{ path: '$', message: 'must be of type integer' }]);
    expect(validateJsonSchema({ type: ['integer', 'null'] }, null)).toEqual([]);
  });

  it('checks a pattern', () => {
    expect(validateJsonSchema({ type: 'string', pattern: '^\\d{2}:\\d{2}$' }, '9am')).toEqual([{ path: '$', message: 'must match ^\\d{2}:\\d{2}$' }]);
  });
});

describe('isSupportedSchema', () => {
  it('accepts the supported keywords, nested', () => {
    expect(isSupportedSchema(page)).toBe(true);
  });

  it('refuses a keyword it would otherwise silently ignore', () => {
    expect(isSupportedSchema({ type: 'object', properties: { a: { oneOf: [] } } })).toBe(false);
    expect(isSupportedSchema('string')).toBe(false);
  });
});
