import { describe, expect, it } from 'vitest';
import { agentReply, chunkText } from './agent.js';

describe('the messaging agent script', () => {
  it('greets a greeting and acknowledges anything else', () => {
    expect(agentReply('hello')).toMatch(/^Hello!/);
    expect(agentReply('Where is my parcel?')).toContain('Where is my parcel?');
  });
});

describe('chunking a streamed response', () => {
  it('gives back the whole response when the chunks are joined', () => {
    for (const text of ['one two three four five', '  leading space kept', 'single', '', 'a  b\tc\nd']) {
      expect(chunkText(text, 2).join(''), JSON.stringify(text)).toBe(text);
    }
  });

  it('makes several chunks of a response of a few words', () => {
    expect(chunkText('one two three four five', 2)).toEqual(['one two ', 'three four ', 'five']);
    expect(chunkText(agentReply('Where is my parcel?')).length).toBeGreaterThan(1);
  });
});
