import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dialtone, ROOT } from './run-cli.js';

// The AsyncAPI documents judged by the frames the suite really exchanges: the messaging and voice signaling cases run
// against the embedded reference target, and every socket frame their wire logs recorded (sent and received) must be
// a message of docs/contract/asyncapi-{messaging,voice}.json (read by @asyncapi/parser: which messages each operation
// sends or receives) and fit that message's payload schema (zod's z.fromJSONSchema, the validator the other contract
// tests use). The wire log keeps frames as text (src/suite/case.ts): messaging frames after the upgrade's answer as
// `> sent`, `< received`, `# closed` lines; voice signaling frames as `→ sent` lines in the request body and
// `← received` lines in the response body. Voice signaling frames are kept whole up to 16 kB each (an SDP offer or
// answer is 0.6 to 3 kB), so every one of them is validated; the messaging frames of one socket are cut at 6000
// characters in all, the cut marked `… (N bytes)`: a cut frame cannot be parsed, so it is mapped to its message by the
// type its prefix names and counted, not validated.

type Socket = 'messaging' | 'voice';
type Direction = 'sent' | 'received';

/** The frames cases send malformed on purpose (the subject of a negative rule): rule id → why. */
const ON_PURPOSE: Readonly<Record<string, string>> = {
  'messaging.events.client-payloads': 'sends the other client types with an empty payload, their required fields left out',
  'messaging.events.client-types-five': 'sends a sixth client type (EVENT_TYPE_CLOSE_CONVERSATION) to see it refused',
  'messaging.events.envelope-invalid': 'sends envelopes without type, without payload, and with a string or array payload',
  'messaging.events.envelope-type-payload': 'sends an unknown type to read the envelope of the error that answers it',
  'messaging.events.error-level': 'sends an unknown type and a server-only type to read the error level',
  'messaging.events.invalid-keeps-open': 'sends a frame that is not JSON, then a valid one',
  'messaging.events.metadata-custom-echo-errors': 'sends an unknown type and a server-only type with metadata.custom to see it echoed',
  'messaging.events.not-allowed-text': 'sends server-only types (SERVICE_AGENT_JOINED, EVENT_BATCH) from the client',
  'messaging.events.server-envelope-fields': 'sends a server-only type to get an error event whose envelope it reads',
  'messaging.events.server-only-rejected': 'sends each server-only type from the client',
  'messaging.events.unknown-type-text': 'sends an unknown type and JSON cut short',
  'voice.errors.auth-token-required': 'sends an offer without authToken',
  'voice.errors.invalid-argument': 'sends an offer whose agentVersionOverride is a string, not an object',
  'voice.errors.invalid-message': 'sends a frame that is not JSON',
  'voice.errors.messages': 'sends a frame that is not JSON to record the error message',
  'voice.signaling.after-error': 'sends a frame that is not JSON, then an offer on the same socket',
  'voice.signaling.error-shape': 'sends a frame that is not JSON to read the error it provokes',
  'voice.signaling.mode-unknown': 'sends an offer with a mode outside the documented three (karaoke)',
  'voice.signaling.required-fields': 'sends an offer without sessionId and one without type',
  'voice.signaling.type-enum': 'sends a type outside the documented five (hangup)',
};

/**
 * The clients' own ordering barrier (src/clients/messaging.ts `barrier`, src/clients/voice-signaling.ts): a frame of a
 * type no document has, sent on purpose because targets answer it with an error after every earlier frame's answers.
 */
const BARRIERS = ['EVENT_TYPE_DIALTONE_BARRIER', 'dialtone-barrier'];

interface Frame {
  readonly socket: Socket;
  readonly dir: Direction;
  readonly rule: string;
  readonly text: string;
  readonly cut: boolean;
}

const CUT = /… \(\d+ bytes\)$/;

/** Every socket frame of every case's wire log, in order. */
function framesOf(results: { cases: { rule: string; wire?: { request: string; response: string }[] }[] }): Frame[] {
  const out: Frame[] = [];
  const push = (socket: Socket, dir: Direction, rule: string, line: string) =>
    out.push({ socket, dir, rule, text: line.replace(CUT, ''), cut: CUT.test(line) });
  for (const c of results.cases) {
    for (const w of c.wire ?? []) {
      const url = (w.request.split('\n')[0] ?? '').split(' ')[1] ?? '';
      if (!w.response.startsWith('101')) continue;
      if (new URL(url).pathname === '/ws') {
        // Messaging: the frames follow the upgrade's (empty) body.
        const after = w.response.split('\n\n').slice(1).join('\n\n');
        for (const line of after.split('\n')) {
          if (line.startsWith('> ')) push('messaging', 'sent', c.rule, line.slice(2));
          else if (line.startsWith('< ')) push('messaging', 'received', c.rule, line.slice(2));
        }
      } else {
        const body = (s: string) => s.split('\n\n').slice(1).join('\n\n');
        for (const line of body(w.request).split('\n')) if (line.startsWith('→ ')) push('voice', 'sent', c.rule, line.slice(2));
        for (const line of body(w.response).split('\n')) if (line.startsWith('← ')) push('voice', 'received', c.rule, line.slice(2));
      }
    }
  }
  return out;
}

interface Message {
  readonly name: string;
  /** The `type` const this message (or oneOf branch of it) carries. */
  readonly type: string;
  readonly schema: z.ZodType;
}

type JsonSchema = { properties?: { type?: { const?: string } }; oneOf?: JsonSchema[] };

/** The messages each operation of an AsyncAPI document sends or receives, by their `type`, as the parser reads them. */
async function messagesOf(file: string): Promise<Record<Direction, Message[]>> {
  const text = readFileSync(`${ROOT}docs/contract/${file}`, 'utf8');
  const { document, diagnostics } = await new Parser().parse(text);
  expect(diagnostics.filter((d) => d.severity === 0).map((d) => d.message)).toEqual([]);
  if (!document) throw new Error(`${file}: not parsed`);
  const raw = JSON.parse(text) as { components: { messages: Record<string, { payload: JsonSchema }> } };
  const out: Record<Direction, Message[]> = { sent: [], received: [] };
  for (const op of document.operations().all()) {
    const dir: Direction = op.action() === 'send' ? 'sent' : 'received';
    for (const m of op.messages().all()) {
      const name = m.name() ?? m.id();
      const payload = raw.components.messages[name]?.payload;
      if (!payload) throw new Error(`${file}: message ${name} has no payload in components`);
      // A message that is a oneOf of event types (messaging's ClientEvent, ServerEvent) is one message per branch.
      for (const branch of payload.oneOf ?? [payload]) {
        const type = branch.properties?.type?.const;
        if (type === undefined) throw new Error(`${file}: ${name} has a branch without a type const`);
        out[dir].push({ name: payload.oneOf ? `${name}(${type})` : name, type, schema: z.fromJSONSchema(branch as never) });
      }
    }
  }
  return out;
}

/** The type a frame names: parsed when it is whole, read from its prefix when the wire log cut it. */
function typeOf(f: Frame): string | undefined {
  if (f.cut) return /"type":"([^"]*)"/.exec(f.text)?.[1];
  try {
    const v: unknown = JSON.parse(f.text);
    return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string' ? (v as { type: string }).type : undefined;
  } catch {
    return undefined;
  }
}

interface Verdict {
  readonly frame: Frame;
  readonly message?: string;
  /** Why the frame does not fit: unmapped, not JSON, or the schema's first issues. */
  readonly problem?: string;
}

function judge(f: Frame, messages: Record<Direction, Message[]>): Verdict {
  const type = typeOf(f);
  const m = messages[f.dir].find((x) => x.type === type);
  // A frame cut before its type is named cannot be mapped: counted as cut, not judged.
  if (!m && f.cut && type === undefined) return { frame: f };
  if (!m) return { frame: f, problem: `maps to no ${f.dir} message (type ${JSON.stringify(type)})` };
  if (f.cut) return { frame: f, message: m.name };
  const parsed = m.schema.safeParse(JSON.parse(f.text));
  if (parsed.success) return { frame: f, message: m.name };
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { frame: f, message: m.name, problem: issues.join('; ') };
}

describe('every socket frame the suite exchanges fits the AsyncAPI documents', () => {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-asyncapi-'));
  let frames: Frame[] = [];
  let docs: Record<Socket, Record<Direction, Message[]>>;
  let runOutput = '';

  beforeAll(async () => {
    docs = { messaging: await messagesOf('asyncapi-messaging.json'), voice: await messagesOf('asyncapi-voice.json') };
    const run = await dialtone(['conformance', '--only', 'messaging.*,voice.*', '--report-dir', work], { timeoutMs: 240_000 });
    runOutput = `${run.stdout}\n${run.stderr}`;
    expect(run.code, runOutput).toBe(0);
    frames = framesOf(JSON.parse(readFileSync(join(work, 'conformance', 'results.json'), 'utf8')));
  }, 300_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('recorded frames both ways on both sockets', () => {
    const count = (socket: Socket, dir: Direction, cut: boolean) => frames.filter((f) => f.socket === socket && f.dir === dir && f.cut === cut).length;
    const counts = Object.fromEntries(
      (['messaging', 'voice'] as const).flatMap((s) =>
        (['sent', 'received'] as const).map((d) => [`${s} ${d}`, { whole: count(s, d, false), cut: count(s, d, true) }]),
      ),
    );
    console.log('frames (whole = validated, cut = mapped only):', JSON.stringify(counts));
    for (const c of Object.values(counts)) expect(c.whole).toBeGreaterThan(0);
    // Signaling frames (SDP offers and answers among them) are recorded whole: none is left to be mapped by type only.
    expect([counts['voice sent']?.cut, counts['voice received']?.cut]).toEqual([0, 0]);
  });

  it('maps every frame to a message of its document, and each whole frame fits its payload schema, but for the listed negative cases', () => {
    const barrier = (f: Frame) => f.dir === 'sent' && BARRIERS.includes(typeOf(f) ?? '');
    const verdicts = frames.filter((f) => !barrier(f)).map((f) => judge(f, docs[f.socket]));
    const bad = verdicts.filter((v) => v.problem);
    const tally: Record<string, number> = {};
    for (const v of verdicts) {
      const what = v.problem ? 'on purpose' : v.frame.cut ? (v.message ? 'cut, mapped' : 'cut before its type') : 'validated';
      const key = `${v.frame.socket} ${v.frame.dir} ${what}`;
      tally[key] = (tally[key] ?? 0) + 1;
    }
    console.log(`frames judged (barriers left out: ${frames.filter(barrier).length}):`, JSON.stringify(tally));
    const unexpected = bad.filter((v) => !(v.frame.dir === 'sent' && v.frame.rule in ON_PURPOSE));
    expect(unexpected.map((v) => `${v.frame.rule} ${v.frame.socket} ${v.frame.dir} ${v.message ?? ''}: ${v.problem} — ${v.frame.text.slice(0, 200)}`)).toEqual(
      [],
    );
    // Each listed case did send a frame the documents do not allow: the list holds nothing that is not needed.
    expect([...new Set(bad.map((v) => v.frame.rule))].sort()).toEqual(Object.keys(ON_PURPOSE).sort());
  });

  it('fails a frame with a field of the wrong type, and one of no documented type', () => {
    const frame = (socket: Socket, dir: Direction, value: unknown): Frame => ({ socket, dir, rule: 'planted', text: JSON.stringify(value), cut: false });
    expect(judge(frame('messaging', 'sent', { type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'hi' } }), docs.messaging).problem).toBeUndefined();
    expect(judge(frame('messaging', 'sent', { type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 42 } }), docs.messaging).problem).toMatch(/payload\.text/);
    const received = frames.find((f) => f.socket === 'voice' && f.dir === 'received' && !f.cut && typeOf(f) === 'error');
    if (!received) throw new Error('no whole voice error frame recorded');
    const wrong = { ...JSON.parse(received.text), sessionId: 7 };
    expect(judge(received, docs.voice).problem).toBeUndefined();
    expect(judge(frame('voice', 'received', wrong), docs.voice).problem).toMatch(/sessionId/);
    expect(judge(frame('voice', 'received', { type: 'hangup', sessionId: '' }), docs.voice).problem).toMatch(/maps to no received message/);
  });
});
