// What dialtone knows of one k6 module, written once in its folder's `description.ts`: the names a script imports it by,
// the metrics it emits, which of its calls block the VU in k6 and which send, whether it is dialtone's own, and how its
// code is loaded. The engine's module table, the blocking rewrite, the run's checks and dialtone's load side (SLO
// metrics, the k6 refusal, Chromium) all read these. A description loads none of its module's code until `code()` is
// called, so dialtone's load side reads it without loading Playwright, werift or grpc-js.
import type { MetricDecl } from '../../core/metrics.js';
import type { SecretSources } from '../secrets.js';
import type { VuHost } from '../types.js';

/** What a module may need of the run beside its VU: the script's path (k6/experimental/fs resolves from its folder). */
export interface ModuleContext {
  readonly scriptPath: string;
  /** The run's secret sources (k6/secrets); none when left out. */
  readonly secrets?: SecretSources | undefined;
}

/** A module's code: the exports one VU gets. */
export type ModuleCode = (vu: VuHost & { vuTags: Record<string, string> }, ctx: ModuleContext) => Record<string, unknown>;

/** One k6 module the built-in engine provides. */
export interface ModuleDescription {
  /** The import names a script may use, k6's current name first; the rest are aliases k6 still documents. */
  readonly names: readonly [string, ...string[]];
  /** The built-in metrics it emits; an SLO of a scenario that imports it may name them. */
  readonly metrics: readonly MetricDecl[];
  /** Its functions that block the VU in k6 (`http.get`): the blocking rewrite awaits them. */
  readonly blocking: readonly string[];
  /** Methods of its classes' instances that block the VU in k6, by class (`Client: ['invoke']`). */
  readonly blockingMethods: Readonly<Record<string, readonly string[]>>;
  /**
   * Its calls that run a function the script passes and wait for it (`group(name, fn)`, `ws.connect(url, handler)`):
   * such a function may block, and the call then blocks too.
   */
  readonly waitsFor: readonly string[];
  /** Its calls that send something: a run whose script has one but that sent nothing did not run as written. */
  readonly sending: readonly string[];
  /**
   * Its metrics whose samples are one exchange with the target each, and whether a sample's `status` tag says the
   * target answered (ran-as-written.ts): a request to a closed port is a sample too, and it tested nothing.
   */
  readonly exchanges: Readonly<Record<string, Answered>>;
  /** dialtone's own module, which k6 cannot run: why (dialtone refuses a scenario importing it on k6). */
  readonly own?: string;
  /** It drives Chromium: a run takes one worker thread (Chromium takes the cores), and dialtone finds a Chromium first. */
  readonly drivesChromium?: boolean;
  /** Made for every script, whether or not the bundle names it (the engine's core: k6, k6/metrics, …). */
  readonly always?: boolean;
  /** Loaded too for a script that imports `module` and whose code matches `code` (`res.html()` needs k6/html). */
  readonly impliedBy?: { readonly module: string; readonly code: RegExp };
  /** Its code, imported only for a script that imports the module. */
  readonly code: () => Promise<ModuleCode>;
}

/** Whether a sample's `status` tag says the target answered. */
export type Answered = (status: string | undefined) => boolean;

/** An HTTP or WebSocket status the target answered with: "0" or none is no answer. */
export const httpAnswered: Answered = (status) => status !== undefined && status !== '0' && status !== '';

/** What a description leaves out: no metrics, no blocking or sending calls, no exchanges. */
type Optional = 'metrics' | 'blocking' | 'blockingMethods' | 'waitsFor' | 'sending' | 'exchanges';

/**
 * A module's description, its lists empty unless given.
 *
 * @example
 * describeModule({ names: ['k6/encoding'], code: async () => (await import('./encoding.js')).encodingModule });
 */
export function describeModule(d: Omit<ModuleDescription, Optional> & Partial<Pick<ModuleDescription, Optional>>): ModuleDescription {
  return { metrics: [], blocking: [], blockingMethods: {}, waitsFor: [], sending: [], exchanges: {}, ...d };
}
