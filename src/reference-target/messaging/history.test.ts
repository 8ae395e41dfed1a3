import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../contract/messaging/shapes.js';
import { bareContext } from '../bare-context.js';
import { agentReply, chunkText } from './agent.js';
import { SessionHistory } from './history.js';
import { MessagingState } from './state.js';

/** The events of one soak session: the join, then four streamed answers (receipt, typing, chunks, typing off). */
function soakSessionEvents(): HistoryEvent[] {
  const state = new MessagingState(bareContext({ seed: 3, voiceClientPage: false }));
  const out: HistoryEvent[] = [state.event('EVENT_TYPE_SERVICE_AGENT_JOINED', {})];
  for (let m = 0; m < 4; m++) {
    const custom = { dialtone_message: `vu3-it17-m${m}` };
    const message_id = `msg_${state.ctx.rng.hex(16)}`;
    out.push(state.event('EVENT_TYPE_DELIVERY_RECEIPT', { message_id: custom.dialtone_message, status: 'delivered' }, custom));
    out.push(state.event('EVENT_TYPE_TYPING_INDICATOR', { is_typing: true, participant: 'agent' }, custom));
    const chunks = chunkText(agentReply(`Where is my parcel number ${m}? It was due on Monday.`));
    chunks.forEach((text, index) => {
      out.push(state.event('EVENT_TYPE_AGENT_MESSAGE_CHUNK', { message_id, index, text, final: index === chunks.length - 1 }, custom));
    });
    out.push(state.event('EVENT_TYPE_TYPING_INDICATOR', { is_typing: false, participant: 'agent' }, custom));
  }
  return out;
}

describe('a messaging session history', () => {
  it('hands back every event it was given, in order, from any index, packed or not', () => {
    const events = soakSessionEvents();
    const history = new SessionHistory();
    for (const e of events.slice(0, 20)) history.push(e);
    history.pack();
    for (const e of events.slice(20)) history.push(e);
    expect(history.length).toBe(events.length);
    for (const from of [0, 7, 20, 25, events.length]) expect(history.from(from)).toEqual(events.slice(from));
    history.pack();
    expect(history.from(0)).toEqual(events);
    expect(history.from(events.length - 1)).toEqual(events.slice(-1));
  });

  it('sends each event as the very frame it keeps', () => {
    const [event] = soakSessionEvents() as [HistoryEvent];
    expect(new SessionHistory().push(event)).toBe(JSON.stringify(event));
  });

  it('holds a packed soak session in under a fifth of its frames’ characters', () => {
    const events = soakSessionEvents();
    const history = new SessionHistory();
    for (const e of events) history.push(e);
    const frames = history.chars;
    expect(frames).toBe(events.reduce((n, e) => n + JSON.stringify(e).length, 0));
    history.pack();
    expect(history.packed).toBe(true);
    expect(history.chars).toBeLessThan(frames / 5);
  });

  it('keeps frames with newlines and non-ASCII text whole through a pack', () => {
    const [event] = soakSessionEvents() as [HistoryEvent];
    const odd = { ...event, payload: { text: 'line one\nline two, “quoted”, 😀, \u2028' } };
    const history = new SessionHistory();
    history.push(odd);
    history.push(event);
    history.pack();
    expect(history.from(0)).toEqual([odd, event]);
  });
});
