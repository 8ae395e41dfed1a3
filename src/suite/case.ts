import { it, type TestContext } from 'vitest';
import { boundTo } from '../clients/exchange.js';
import { withMutation } from '../clients/mutation.js';
import { type RuleId, Rules } from '../contract/index.js';
import { redact } from '../profile/redact.js';
import { type Capability, capabilities, profileWait } from '../profile/schema.js';
import { countingChecks } from './check-count.js';
import { CheckFailure, type checks } from './checks.js';
import { CaseContext, PROFILE_ENV, runSettings, secretEnv } from './context.js';
import { checkAnswers, type DerivedTallies } from './derived/answers.js';
import { holdDuringFile, sharedResource } from './exclusive.js';
import type { CaseMeta, WireEntry } from './meta.js';
import { mutationScope } from './mutations/scope.js';
import { curlFor } from './reproduce.js';
import { missingFor } from './surfaces.js';

/** What a case body gets: the clients, the checks, and ways to record what it saw. */
export interface CaseApi {
  readonly t: CaseContext;
  readonly check: typeof checks;
  /** Records what the target did where the documents leave it open; the outcome becomes `observed`. */
  observe(label: string, value: unknown): void;
  /** Records which documented alternative the target chose (for contradictions). */
  choose(alternative: string): void;
  /** Records a named duration for the report. */
  timing(name: string, ms: number): void;
  /** Ends the case as skipped with the reason, for what only the run can tell (a token too long-lived to wait for). */
  skip(reason: string): never;
  /** Runs `fn` once the case has ended, whatever its outcome: its own, as cases may run side by side. */
  onFinished(fn: () => unknown): void;
}

export interface CaseOptions {
  /**
   * Capabilities the case needs; without them it is skipped with the reason. A case that needs `slow` is a real-time
   * variant: it runs only with `--slow`, and concurrently with the other real-time cases of its file (they mostly
   * wait); like every case it closes what it opens in a `finally` or through `api.onFinished`, never vitest's global hook.
   */
  readonly needs?: readonly Capability[];
  /** The case's vitest timeout, for cases that wait longer than the suite's default (real-time variants). */
  readonly timeoutMs?: number;
  /** How long the case takes, for its skip reason without `--slow` ("about 11 minutes"). */
  readonly takes?: string;
  /**
   * The operation this case checks the rule on, for a rule checked once per operation it covers (a credential rule on
   * create, respond and close): the case gets that operation's registered mutation (`RuleProof.operations`).
   */
  readonly operation?: string;
  /**
   * The case runs in its turn, never beside the other cases of its file, where the gate runs cases side by side: it
   * judges what side-by-side work would disturb (a media connection's packet timing, its DTLS handshake's CPU).
   */
  readonly sequential?: boolean;
}

/** Why a case is skipped when the run lacks a capability it needs. */
function missingReason(capability: Capability, options: CaseOptions): string {
  return capability === 'slow'
    ? `real-time check: run with --slow (takes ${options.takes ?? 'minutes to hours'})`
    : `needs the '${capability}' capability, which only the reference target has`;
}

/** What a case of `surface` shares with others on this run's target; none outside a run (a file imported alone). */
function sharedResourceOf(surface: string): string | undefined {
  if (!process.env[PROFILE_ENV]) return undefined;
  return sharedResource(surface, capabilities(runSettings(surface).loaded.profile));
}

/**
 * A case's bound: the profile's waits.case_ms (a slow platform's cases take longer), or the case's own when it waits
 * longer (a real-time variant); the case's own alone outside a run.
 */
function caseTimeout(surface: string, own: number | undefined): number | undefined {
  if (!process.env[PROFILE_ENV]) return own;
  return Math.max(own ?? 0, profileWait(runSettings(surface).loaded.profile, 'case_ms').ms);
}

/** The derived checks of every answer and event the case saw, their texts redacted. */
function derivedOf(t: CaseContext, surface: string, secrets: string[]): CaseMeta['derived'] {
  const tallies: DerivedTallies = {};
  checkAnswers(t.log, surface, tallies);
  return Object.values(tallies).map((d) =>
    d.failure ? { ...d, failure: { documented: d.failure.documented, received: redact(d.failure.received, secrets) } } : d,
  );
}

/** Thrown by `api.skip` so the case's own error handling lets it through. */
class SkipSignal extends Error {}

const cut = (s: string | undefined, n = 2000) => (s === undefined ? '' : s.length > n ? `${s.slice(0, n)}… (${s.length} bytes)` : s);

const FRAME_MARK = { sent: '>', received: '<', closed: '#' } as const;

function wireOf(t: CaseContext, secrets: string[]): WireEntry[] {
  return t.log.map((ex) => {
    const reqHeaders = Object.entries(ex.requestHeaders)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n');
    const resHeaders = Object.entries(ex.responseHeaders)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n');
    // A socket's bodies (101: voice signaling) are its frames, each already cut by the client that recorded it.
    const body = (b: string | undefined) => (ex.status === 101 ? (b ?? '') : cut(b));
    // WebSocket frames follow the handshake's answer: > sent, < received, # closed.
    const frames = ex.frames?.length ? `\n${cut(ex.frames.map((f) => `${FRAME_MARK[f.dir]} ${f.data}`).join('\n'), 6000)}` : '';
    return {
      request: redact(`${ex.method} ${ex.url}\n${reqHeaders}\n\n${body(ex.requestBody)}`, secrets),
      // A request that got no answer is logged too: its response says why, where the status would be.
      response: redact(
        ex.unanswered !== undefined ? `(no answer: ${ex.unanswered})` : `${ex.status}\n${resHeaders}\n\n${body(ex.responseBody)}${frames}`,
        secrets,
      ),
      ms: Math.round(ex.ms * 10) / 10,
    };
  });
}

/**
 * Declares the conformance case of one catalogue rule. The vitest title starts with the rule id,
 * then says in a sentence what is checked.
 *
 * @example
 * rule('chat.close.success-true', 'closes a conversation and answers success: true', async ({ t, check }) => {
 *   const res = await t.chat.close({ conversation_id: id });
 *   check.equal(res.json?.success, true, 'success: true');
 * });
 */
export function rule(id: RuleId, sentence: string, body: (api: CaseApi) => Promise<void>, options: CaseOptions = {}): void {
  const r = Rules[id];
  const slow = options.needs?.includes('slow') ?? false;
  const run = async (ctx: TestContext) => {
    const meta: CaseMeta = { rule: id, ...(r.open ? { open: true } : {}), ...(options.operation ? { operation: options.operation } : {}) };
    ctx.task.meta.dialtone = meta;
    const settings = runSettings(r.surface);
    const loaded = settings.loaded;
    const t = new CaseContext(loaded, { slow: settings.slow });
    const missing = options.needs?.find((n) => !t.capabilities.has(n));
    const skipReason = missingFor(r.surface, loaded) ?? (missing ? missingReason(missing, options) : undefined);
    if (skipReason) {
      meta.skipReason = skipReason;
      ctx.skip(skipReason);
      return;
    }
    const env = secretEnv(loaded);
    const secrets = Object.values(env);
    const counted = countingChecks();
    const api: CaseApi = {
      t,
      check: counted.check,
      observe: (label, value) => {
        meta.observed ??= [];
        meta.observed.push(redact(`${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`, secrets));
      },
      choose: (alternative) => {
        meta.chosen = alternative;
      },
      timing: (name, ms) => {
        meta.timings ??= {};
        meta.timings[name] = Math.round(ms * 10) / 10;
      },
      skip: (reason) => {
        throw new SkipSignal(reason);
      },
      // The case's own hook: vitest's global onTestFinished cannot tell which of the cases side by side called it.
      onFinished: (fn) => ctx.onTestFinished(async () => void (await fn())),
    };
    // A profile file the user gave is named; a reference target the command started is started again alike.
    const profileArg = loaded.path ? ` --target ${loaded.path}` : (loaded.profile.defects ?? []).map((d) => ` --defect ${d}`).join('');
    const reproduce = () => {
      const last = t.log.at(-1);
      return [...(last ? [curlFor(last, env)] : []), `npx dialtone conformance --only '${id}'${slow ? ' --slow' : ''}${profileArg}`];
    };
    const scope = mutationScope(id, r.open === true, settings.mutations, meta, options.operation);
    // A case stopped at its timeout is reported before it reaches `finally`: its requests were stopped with the
    // timeout (boundTo), so once they have settled its wire log shows what it was waiting on, and the failure says so.
    ctx.onTestFailed(async ({ task }) => {
      if (meta.wire) return;
      await new Promise((done) => setImmediate(done));
      meta.wire = wireOf(t, secrets);
      const why = task.result?.errors?.[0]?.message.split('\n')[0] ?? 'stopped';
      const ms = /^Test timed out in (\d+)ms/.exec(why)?.[1];
      const received = ms ? `the case did not end within ${ms} ms (waits.case_ms)` : why;
      meta.failure ??= { check: ms ? 'time' : 'error', documented: r.statement, received: redact(received, secrets), reproduce: reproduce() };
    });
    try {
      await boundTo(ctx.signal, () => withMutation(scope, () => body(api)));
      if (!r.open) counted.assertSome(r.statement);
    } catch (e) {
      if (e instanceof SkipSignal) {
        meta.skipReason = redact(e.message, secrets);
        ctx.skip(meta.skipReason);
        return;
      }
      const failure =
        e instanceof CheckFailure
          ? { check: e.check, documented: e.documented, received: redact(e.received, secrets) }
          : { check: 'error', documented: r.statement, received: redact((e as Error).message ?? String(e), secrets) };
      if (r.open) {
        // "Not shown" never fails the gate: what happened is recorded as the observation.
        api.observe(failure.check, failure.received);
      } else {
        meta.failure = { ...failure, reproduce: reproduce() };
        throw new CheckFailure(failure.check, failure.documented, failure.received);
      }
    } finally {
      // Leave a real account as the case found it: what it created is deleted (after its checks, outside its wire log).
      const mark = t.log.length;
      const left = await t.agents.cleanUp().catch(() => t.agents.created.splice(0));
      t.log.splice(mark);
      if (left.length) meta.leftBehind = left;
      meta.wire = wireOf(t, secrets);
      if (meta.mutation) meta.mutation.applied = scope.applied;
      // A proof run rewrites answers on purpose: what it rewrote judges the case's own rule, never a derived check.
      if (!settings.mutations) meta.derived = derivedOf(t, r.surface, secrets);
    }
    if (r.open && !meta.observed) api.observe('result', 'nothing recorded');
  };
  // Real-time cases mostly wait: those of one file wait side by side rather than one after another. The gate runs the
  // others side by side too (src/suite/run.ts), but for a case that shares a limited resource with others (exclusive.ts):
  // it runs in its turn, and its file alone among the files that share it.
  const shared = sharedResourceOf(r.surface);
  if (shared) holdDuringFile(shared);
  (slow ? it.concurrent : shared || options.sequential ? it.sequential : it)(`${id} ${sentence}`, run, caseTimeout(r.surface, options.timeoutMs));
}
