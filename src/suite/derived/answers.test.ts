import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../clients/exchange.js';
import { checkAnswers, type DerivedTallies, operationOf } from './answers.js';

const exchange = (method: string, url: string, status: number, body: unknown, headers: Record<string, string> = {}): Exchange => ({
  method,
  url,
  requestHeaders: {},
  requestBody: undefined,
  status,
  responseHeaders: headers,
  responseBody: typeof body === 'string' ? body : JSON.stringify(body),
  ms: 1,
});

const turn = { user_input: 'refund please', user_input_dtmf: '', user_input_datetime: '2026-01-01T00:00:00Z', barge_in: false, agent_response: 'sure' };
const record = (o: Record<string, unknown> = {}) => ({
  id: 'c1',
  account_id: 'a',
  project_id: 'p',
  variant_id: 'v',
  variant_name: 'Main',
  environment: 'live',
  started_at: '2026-01-01T00:00:00Z',
  channel: 'CHAT',
  from_number: '',
  to_number: '',
  in_progress: false,
  num_turns: 1,
  total_duration: 60,
  polyai_duration: 50,
  handoff: false,
  handoff_reason: '',
  handoff_destination: '',
  num_silences: 0,
  num_ood: 0,
  metrics: {},
  state: {},
  turns: [{ ...turn, agent_response_datetime: '2026-01-01T00:00:01Z', intents: [], entities: {}, is_ood: false, is_silence: false }],
  ...o,
});
const LIST = 'https://runtime.example.com/v3/acme/support/conversations';

/** The failed derived checks of a log, as `rule: what`. */
function failed(log: Exchange[], surface: string): string[] {
  const tallies: DerivedTallies = {};
  checkAnswers(log, surface, tallies);
  return Object.values(tallies)
    .filter((t) => t.failure)
    .map((t) => `${t.rule}: ${t.what}`)
    .sort();
}

describe('the documented operation of an exchange', () => {
  it('is found by method and path, whatever the host and a prefix before the path', () => {
    expect(operationOf('POST', 'https://runtime.example.com/v1/acme/support/chat/create')?.path).toBe('/{version}/{account_id}/{project_id}/chat/create');
    expect(operationOf('GET', `${LIST}?limit=5`)?.path).toBe('/v3/{account_id}/{project_id}/conversations');
    expect(operationOf('GET', 'https://runtime.example.com/v3/acme/support/conversations/c1/audio')?.path).toBe(
      '/v3/{account_id}/{project_id}/conversations/{conversation_id}/audio',
    );
    expect(operationOf('DELETE', 'https://agents.example.com/v1/alert-rules/ar_1')).toBeUndefined();
  });
});

describe('checks derived from the contract on the answers a case saw', () => {
  it('pass answers as documented and count what they judged', () => {
    const tallies: DerivedTallies = {};
    checkAnswers(
      [exchange('GET', `${LIST}?in_progress=false&limit=5`, 200, { conversations: [record(), record({ id: 'c2' })], cursor: null })],
      'conversations',
      tallies,
    );
    expect(Object.values(tallies).every((t) => !t.failure)).toBe(true);
    expect(Object.values(tallies).map((t) => t.rule)).toEqual(
      expect.arrayContaining([
        'conversations.record.fields',
        'conversations.turn.fields',
        'conversations.record.parts-within-whole',
        'conversations.filter.in-progress-selects',
        'conversations.order.ascending',
        'conversations.limit.page-size',
      ]),
    );
  });

  it('fail a record a filter should have excluded, a transcript search matched on the other side, a wrong order, a passed cap', () => {
    const late = record({ id: 'c0', started_at: '2025-12-31T00:00:00Z' });
    const log = [
      exchange('GET', `${LIST}?in_progress=true`, 200, { conversations: [record({ in_progress: true }), record({ id: 'c2' })], cursor: null }),
      exchange('GET', `${LIST}?query_type=transcript&query=sure&turn_type=user&start_time=2025-01-01T00:00:00Z&end_time=2027-01-01T00:00:00Z`, 200, {
        conversations: [record()],
        cursor: null,
      }),
      exchange('GET', `${LIST}?limit=1`, 200, { conversations: [record(), late], cursor: null }),
    ];
    expect(failed(log, 'conversations')).toEqual([
      'conversations.filter.in-progress-selects: GET /v3/{account_id}/{project_id}/conversations with in_progress returns only the items it selects',
      'conversations.filter.turn-type-values: GET /v3/{account_id}/{project_id}/conversations with query returns only the items it selects',
      'conversations.limit.page-size: GET /v3/{account_id}/{project_id}/conversations returns no more items than limit',
      'conversations.order.ascending: GET /v3/{account_id}/{project_id}/conversations lists its items ascending by started_at',
    ]);
  });

  it('fail a documented default the target ignored, and a part in another unit than its whole', () => {
    const log = [exchange('GET', LIST, 200, { conversations: [record({ environment: 'sandbox', polyai_duration: 50_000 })], cursor: null })];
    expect(failed(log, 'conversations')).toEqual([
      'conversations.filter.client-env-default-live: GET /v3/{account_id}/{project_id}/conversations without client_env returns only client_env live',
      'conversations.record.parts-within-whole: GET /v3/{account_id}/{project_id}/conversations answers its documented shape',
    ]);
  });

  it('fail an error body or a Retry-After that breaks the document, and never judge another surface', () => {
    const log = [
      exchange('GET', 'https://runtime.example.com/v1/acme/support/conversations/concurrency', 400, { error: 'bad range' }),
      exchange('POST', 'https://messaging.example.com/api/v1/sessions', 429, { error: 'Rate limit exceeded' }, { 'retry-after': 'soon' }),
    ];
    expect(failed(log, 'concurrency')).toEqual([
      'concurrency.errors.error-message-body: GET /v1/{account_id}/{project_id}/conversations/concurrency errors carry the documented error body',
    ]);
    expect(failed(log, 'messaging')).toEqual([
      'messaging.limits.rate-limit-http: POST /api/v1/sessions 429 carries Retry-After as delta-seconds or an HTTP date',
    ]);
  });

  it('fail socket events without their documented envelope or shape', () => {
    const ws: Exchange = {
      ...exchange('GET', 'wss://messaging.example.com/ws?access_token=x&session_id=s', 101, ''),
      frames: [
        { dir: 'received', data: JSON.stringify({ id: '1', timestamp: 't', type: 'EVENT_TYPE_EVENT_BATCH', payload: {}, metadata: {} }), ms: 1 },
        { dir: 'received', data: JSON.stringify({ id: '2', type: 'EVENT_TYPE_SERVICE_AGENT_JOINED', payload: {}, metadata: {} }), ms: 2 },
      ],
    };
    const voice = exchange(
      'GET',
      'wss://gateway.example.com/api/v1/webrtc/signal',
      101,
      `← ${JSON.stringify({ type: 'error', sessionId: '', data: { code: 'NOPE', message: 'x' } })}`,
    );
    expect(failed([ws], 'messaging')).toEqual(['messaging.events.server-envelope-fields: /ws events are JSON with the documented envelope']);
    expect(failed([voice], 'voice')).toEqual(['voice.signaling.error-shape: /api/v1/webrtc/signal error events have their documented shape']);
  });
});
