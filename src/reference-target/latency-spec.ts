// The text of `dialtone target --latency SPEC` (and of DIALTONE_TARGET_LATENCY): which op takes how long.
import { DEFAULT_AGENT_REPLY_MS } from '../profile/schema.js';
import { type Distribution, formatDistribution, parseDistribution, upperOf } from './distribution.js';
import { isOp, OP_NAMES, type Op } from './ops.js';

/** The variable that gives a target started by any command (or by a test, in its own process) a latency spec. */
export const LATENCY_ENV = 'DIALTONE_TARGET_LATENCY';

/** A parsed spec: the text as given (the start line and the profile name show it) and a distribution per op it names. */
export interface LatencySpec {
  readonly text: string;
  readonly ops: ReadonlyMap<Op, Distribution>;
}

/** No added latency: the target answers as fast as it can. */
export const NO_LATENCY: LatencySpec = { text: 'none', ops: new Map() };

/** An agent turn: published production turn latency is p50 1.4–1.7 s, p95 4.3–5.4 s. */
const AGENT_TURN: Distribution = { kind: 'lognormal', p50: 1500, p95: 4500 };
/** A call that involves no agent (create, close, token, session, records, outbound). */
const API_CALL: Distribution = { kind: 'lognormal', p50: 80, p95: 250 };
/** The interval between two streamed chunks of one reply. */
const CHUNK_CADENCE: Distribution = { kind: 'lognormal', p50: 60, p95: 200 };

/** `realistic`: every op, at the figures of a production agent platform (docs/reference-target.md, "Latency"). */
export const REALISTIC: Readonly<Record<Op, Distribution>> = {
  'chat.create': API_CALL,
  'chat.respond': AGENT_TURN,
  'chat.close': API_CALL,
  'messaging.access_token': API_CALL,
  'messaging.session': API_CALL,
  'messaging.reply': AGENT_TURN,
  'messaging.chunk': CHUNK_CADENCE,
  'conversations.list': API_CALL,
  'outbound.trigger': API_CALL,
  'outbound.status': API_CALL,
  'voice.ice_servers': API_CALL,
  'voice.first_agent_audio': AGENT_TURN,
  'voice.reply': AGENT_TURN,
};

/** The ops a case waits out on a socket: the agent's reply, its chunks, its first audio. */
const WAITED_OPS: readonly Op[] = ['messaging.reply', 'messaging.chunk', 'voice.reply', 'voice.first_agent_audio'];
/** The 99.99th percentile's z: a run draws some dozens of replies, so one in ten thousand is a wait's margin. */
const Z_9999 = 3.719;

/**
 * The agent reply wait a profile of this target names (`waits.agent_reply_ms`): the slowest waited op's 99.99th
 * percentile and 2 s, in whole seconds, never under the default; undefined when no waited op is slowed.
 *
 * @example
 * agentReplyWaitFor(parseLatency('realistic').spec) // 20000: p50 1.5 s, p95 4.5 s reaches 18 s one time in 10 000
 */
export function agentReplyWaitFor(spec: LatencySpec): number | undefined {
  const slowed = WAITED_OPS.flatMap((op) => spec.ops.get(op) ?? []);
  if (slowed.length === 0) return undefined;
  const slowest = Math.max(...slowed.map((d) => upperOf(d, Z_9999)));
  return Math.max(DEFAULT_AGENT_REPLY_MS, Math.ceil((slowest + 2000) / 1000) * 1000);
}

/** Entries that stand for a whole table: `realistic` sets every op, `none` clears what came before it. */
const PRESETS: Record<string, (ops: Map<Op, Distribution>) => void> = {
  realistic: (ops) => {
    for (const op of OP_NAMES) ops.set(op, REALISTIC[op]);
  },
  none: (ops) => ops.clear(),
};

/** The ops an entry's left side names: one op, `SURFACE.*` (every op that starts so) or `*`; empty when none. */
function opsNamed(name: string): Op[] {
  if (name === '*') return OP_NAMES;
  if (name.endsWith('.*')) return OP_NAMES.filter((op) => op.startsWith(name.slice(0, -1)));
  return isOp(name) ? [name] : [];
}

const wildcards = () => [...new Set(OP_NAMES.map((op) => `${op.slice(0, op.indexOf('.'))}.*`))];

/**
 * Parses a latency spec: entries separated by `;`, each a preset (`realistic`, `none`) or `OP=DISTRIBUTION`, where OP is
 * an op (`chat.respond`), `SURFACE.*` or `*`; a later entry replaces what an earlier one set for the same op. Returns a
 * one-line error text (starting with `label`) instead of throwing, so each caller words its own usage error.
 *
 * @example
 * parseLatency('realistic;chat.respond=fixed:2s') // every op realistic, but each respond takes 2 s
 * parseLatency('chat.*=lognormal:p50=1.5s,p95=4.5s') // { spec: { text: …, ops: Map { 'chat.create' => …, … } } }
 */
export function parseLatency(text: string, label = '--latency'): { spec: LatencySpec } | { error: string } {
  const ops = new Map<Op, Distribution>();
  const entries = text
    .split(';')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 0) return { error: `${label} needs a preset (${Object.keys(PRESETS).join(', ')}) or OP=DISTRIBUTION entries, got '${text}'` };
  for (const entry of entries) {
    const preset = Object.hasOwn(PRESETS, entry) ? PRESETS[entry] : undefined;
    if (preset) {
      preset(ops);
      continue;
    }
    const eq = entry.indexOf('=');
    if (eq < 0) {
      return {
        error:
          `${label}: '${entry}' is neither a preset (${Object.keys(PRESETS).join(', ')}) nor OP=DISTRIBUTION (e.g. ` +
          `chat.respond=lognormal:p50=1.5s,p95=4.5s)`,
      };
    }
    const name = entry.slice(0, eq).trim();
    const named = opsNamed(name);
    if (named.length === 0) return { error: `${label}: unknown op '${name}'; known ops: ${OP_NAMES.join(', ')} (or ${wildcards().join(', ')}, *)` };
    const parsed = parseDistribution(entry.slice(eq + 1).trim());
    if ('error' in parsed) return { error: `${label}: ${name}: ${parsed.error}` };
    for (const op of named) ops.set(op, parsed.distribution);
  }
  return { spec: { text: entries.join(';'), ops } };
}

/**
 * The spec of DIALTONE_TARGET_LATENCY, or no latency when it is unset or empty.
 *
 * @example
 * latencyFromEnv({ DIALTONE_TARGET_LATENCY: 'realistic' }) // { spec: { text: 'realistic', … } }
 */
export function latencyFromEnv(env: NodeJS.ProcessEnv = process.env): { spec: LatencySpec } | { error: string } {
  const text = env[LATENCY_ENV];
  return text === undefined || text.trim() === '' ? { spec: NO_LATENCY } : parseLatency(text, LATENCY_ENV);
}

/**
 * Each op the spec sets, with its distribution in text form (the control surface's `/state` shows it).
 *
 * @example
 * describeLatency(parseLatency('chat.respond=fixed:2s').spec) // { 'chat.respond': 'fixed:2s' }
 */
export function describeLatency(spec: LatencySpec): Record<string, string> {
  return Object.fromEntries([...spec.ops].map(([op, d]) => [op, formatDistribution(d)]));
}

/** The grammar, for the usage text: the ops one line per surface, each with its wildcard. */
export function latencyGrammar(indent: string): string {
  const lines = wildcards().map((w) => `${OP_NAMES.filter((op) => op.startsWith(w.slice(0, -1))).join(', ')} (or ${w})`);
  return [
    "SPEC: 'realistic', 'none', or OP=DISTRIBUTION entries separated by ';' (or repeat --latency); later entries win.",
    `OP:   ${lines.join(`\n${indent}      `)}; * is every op.`,
    `DISTRIBUTION (durations in ms or s): fixed:1.2s | lognormal:p50=1.5s,p95=4.5s | uniform:min=50ms,max=150ms`,
  ].join(`\n${indent}`);
}
