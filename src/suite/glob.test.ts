import { describe, expect, it } from 'vitest';
import { globToPattern, matchesGlob, surfacesOf } from './glob.js';

describe('globToPattern', () => {
  it('matches a whole surface with a trailing star', () => {
    expect(new RegExp(globToPattern('chat.*')).test('chat.close.success-true closes it')).toBe(true);
    expect(new RegExp(globToPattern('chat.*')).test('messaging.ws.limit')).toBe(false);
  });

  it('treats dots literally, so chat.close does not match chatxclose', () => {
    expect(matchesGlob('chatxclose.a', 'chat.close*')).toBe(false);
  });

  it('accepts several globs joined by commas', () => {
    expect(matchesGlob('alerts.rules.limit-10-409', 'agents.*,alerts.*')).toBe(true);
  });

  it('does not let a star run past the id into the title', () => {
    expect(new RegExp(globToPattern('chat.close')).test('chat.close.success-true title')).toBe(false);
  });
});

describe('surfacesOf', () => {
  it('names the surfaces a glob is limited to', () => {
    expect(surfacesOf('chat.*,messaging.ws.*')).toEqual(['chat', 'messaging']);
  });

  it('gives up when an alternative could match any surface', () => {
    expect(surfacesOf('chat.*,*.auth.*')).toBeUndefined();
    expect(surfacesOf(undefined)).toBeUndefined();
  });
});
