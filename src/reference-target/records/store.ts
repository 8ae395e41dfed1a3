import { randomBytes } from 'node:crypto';
import { REFERENCE_HISTORY } from '../../contract/conversations/shapes.js';
import type { TargetContext } from '../context.js';
import type { StoredConversation } from '../conversations.js';
import { recordOf } from './build.js';
import { generateHistory } from './history.js';
import { compareRecords, type RecordData } from './model.js';
import { defaultSettings, type KeyGrant, type Project, type ProjectSettings } from './projects.js';
import { generateTraffic } from './traffic-seed.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const HISTORY_FROM = Date.parse(REFERENCE_HISTORY.start_time);
const HISTORY_TO = Date.parse(REFERENCE_HISTORY.end_time);
const LINES = ['+442071838750', '+442071838751', '+13125550142'];

/** Records of a minted project: a small history in the first week of the reference window. */
const MINTED_HISTORY = { count: 400, days: 7, inProgress: 0 } as const;

/** The index of the first record started at or after `ms` (records ascending). */
function lowerBound(records: readonly RecordData[], ms: number): number {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((records[mid] as RecordData).startedAt < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A time slice of the records asked for: started at or after `fromMs` and before `toMs`; both optional. */
export interface Bounds {
  readonly fromMs?: number | undefined;
  readonly toMs?: number | undefined;
}

/** A freshly minted project and the keys issued for it. */
export interface Minted {
  readonly project: Project;
  readonly apiKey: string;
  readonly apiKeyNoPii: string;
}

/**
 * The conversation records of every project the target serves: the seeded history (made on first
 * use, so starting the target stays fast, and always kept) followed by the conversations it served
 * itself, which are built at read time from the shared conversation store (those its retention
 * keeps). Also holds project settings, the conversations keys and the state written to
 * conversations after the fact (bridge-ended).
 */
export class RecordsStore {
  readonly #projects = new Map<string, Project>();
  readonly #histories = new Map<string, { make: () => readonly RecordData[]; records?: readonly RecordData[] }>();
  readonly #keys = new Map<string, KeyGrant>();
  readonly #overlay = new Map<string, Record<string, unknown>>();
  #byId: Map<string, { project: Project; record: RecordData }> | undefined;
  #minted = 0;

  constructor(private readonly ctx: TargetContext) {
    const t = ctx.tenant;
    const main: Project = {
      key: 'main',
      accountSlug: t.accountSlug,
      accountId: t.accountId,
      projectSlug: t.projectSlug,
      projectId: t.projectId,
      variants: t.variants,
      lines: LINES,
      servesTraffic: true,
      settings: defaultSettings(),
    };
    // A second project of the same account, holding no records: its key is valid but not for the main project.
    const other: Project = {
      ...main,
      key: 'other',
      projectSlug: 'billing-line',
      projectId: 'PROJECT-77c2d5a0',
      servesTraffic: false,
      settings: defaultSettings(),
    };
    const traffic = ctx.traffic;
    if (traffic) {
      // Seeded traffic of known distributions stands in for the reference history (`dialtone target --traffic-seed`).
      this.#projects.set(main.key, main);
      this.#histories.set(main.key, { make: () => generateTraffic({ ...traffic, variants: main.variants, lines: main.lines }) });
    } else {
      this.#add(main, { seed: REFERENCE_HISTORY.seed, count: REFERENCE_HISTORY.count, fromMs: HISTORY_FROM, toMs: HISTORY_TO, inProgress: 12 });
    }
    this.#add(other, undefined);
    const c = ctx.credentials;
    this.#keys.set(c.conversations_api_key, { projectKey: 'main', pii: true });
    this.#keys.set(c.conversations_api_key_no_pii, { projectKey: 'main', pii: false });
    this.#keys.set(c.conversations_other_project_key, { projectKey: 'other', pii: true });
    // State written to a served conversation goes with it; the seeded history's ids are never forgotten.
    ctx.conversations.onForget((id) => this.#overlay.delete(id));
  }

  #add(project: Project, history: { seed: number; count: number; fromMs: number; toMs: number; inProgress: number } | undefined): void {
    this.#projects.set(project.key, project);
    if (history) this.#histories.set(project.key, { make: () => generateHistory({ ...history, variants: project.variants, lines: project.lines }) });
    this.#byId = undefined;
  }

  /** What a conversations key may do; undefined for a key the target never issued. */
  grant(key: string): KeyGrant | undefined {
    return this.#keys.get(key);
  }

  /** The project named by path ids in slug or prefixed form. */
  project(account: string, project: string, allowPrefixed = true): Project | undefined {
    for (const p of this.#projects.values()) {
      const accountOk = account === p.accountSlug || (allowPrefixed && account === p.accountId);
      const projectOk = project === p.projectSlug || (allowPrefixed && project === p.projectId);
      if (accountOk && projectOk) return p;
    }
    return undefined;
  }

  byKey(key: string): Project | undefined {
    return this.#projects.get(key);
  }

  /** The project's seeded history, generated on first use. */
  history(project: Project): readonly RecordData[] {
    const h = this.#histories.get(project.key);
    if (!h) return [];
    h.records ??= h.make();
    return h.records;
  }

  /** The project's records started within the bounds (from inclusive, to exclusive), ascending: history first, then served traffic. */
  records(project: Project, bounds: Bounds = {}): RecordData[] {
    const history = this.history(project);
    const from = bounds.fromMs === undefined ? 0 : lowerBound(history, bounds.fromMs);
    const to = bounds.toMs === undefined ? history.length : lowerBound(history, bounds.toMs);
    const out = history.slice(from, to);
    if (!project.servesTraffic) return out;
    const live: RecordData[] = [];
    for (const c of this.ctx.conversations.values()) {
      if (bounds.fromMs !== undefined && c.startedAt < bounds.fromMs) continue;
      if (bounds.toMs !== undefined && c.startedAt >= bounds.toMs) continue;
      live.push(this.#recordOf(c, project.variants));
    }
    live.sort(compareRecords);
    const merged = out.concat(live);
    // Traffic normally starts after the history; if the clock says otherwise, keep one order.
    const first = live[0];
    const last = out.at(-1);
    return first && last && compareRecords(last, first) > 0 ? merged.sort(compareRecords) : merged;
  }

  /** The record of a conversation the target served; a defect's names the default variant whatever it was routed to. */
  #recordOf(c: StoredConversation, variants: Project['variants']): RecordData {
    return recordOf(this.ctx.defects.has('conversations-record-default-variant') ? { ...c, variantId: undefined } : c, variants);
  }

  /** A record by conversation id, in any project, with its project. */
  find(id: string): { project: Project; record: RecordData } | undefined {
    const c = this.ctx.conversations.get(id);
    const main = this.#projects.get('main') as Project;
    if (c) return { project: main, record: this.#recordOf(c, main.variants) };
    if (!this.#byId) {
      this.#byId = new Map();
      for (const p of this.#projects.values()) for (const r of this.history(p)) this.#byId.set(r.id, { project: p, record: r });
    }
    return this.#byId.get(id);
  }

  /** The record's state with what was written to it after the fact (bridge-ended) on top. */
  stateOf(record: RecordData): Record<string, unknown> {
    const extra = this.#overlay.get(record.id);
    return extra ? { ...record.state, ...extra } : { ...record.state };
  }

  /**
   * Whether a record was in progress when it was first stored: a defect's stale search index, never updated when a
   * conversation ends. Every conversation the target served was stored as it started; the seeded history as it is.
   */
  inProgressWhenStored(record: RecordData): boolean {
    return this.ctx.conversations.get(record.id) !== undefined || record.inProgress;
  }

  /** Whether anything was written to the record's state after the fact. */
  hasLaterState(id: string): boolean {
    return this.#overlay.has(id);
  }

  /** Sets conversation variables on a record (live or seeded). */
  setState(id: string, variables: Record<string, unknown>): void {
    this.#overlay.set(id, { ...this.#overlay.get(id), ...variables });
  }

  /**
   * Mints a project of the reference account with its own settings, a small seeded history and two
   * keys (with and without PII access), so cases that change settings never disturb other cases.
   */
  mint(settings: Partial<ProjectSettings> = {}): Minted {
    const n = ++this.#minted;
    const hex = n.toString(16).padStart(4, '0');
    const main = this.#projects.get('main') as Project;
    const project: Project = {
      ...main,
      key: `minted-${n}`,
      projectSlug: `case-line-${n}`,
      projectId: `PROJECT-c0de${hex}`,
      servesTraffic: false,
      settings: { ...defaultSettings(), ...settings },
    };
    this.#add(project, {
      seed: REFERENCE_HISTORY.seed + n,
      count: MINTED_HISTORY.count,
      fromMs: HISTORY_FROM,
      toMs: HISTORY_FROM + MINTED_HISTORY.days * DAY_MS,
      inProgress: MINTED_HISTORY.inProgress,
    });
    const key = () => `dt_${randomBytes(18).toString('base64url')}`;
    const apiKey = key();
    const apiKeyNoPii = key();
    this.#keys.set(apiKey, { projectKey: project.key, pii: true });
    this.#keys.set(apiKeyNoPii, { projectKey: project.key, pii: false });
    return { project, apiKey, apiKeyNoPii };
  }
}

const STORES = new WeakMap<TargetContext, RecordsStore>();

/**
 * The records store of one running target, shared by the records and calls surfaces (bridge-ended
 * writes state that records show; external events bind to conversations).
 */
export function recordsOf(ctx: TargetContext): RecordsStore {
  let store = STORES.get(ctx);
  if (!store) {
    store = new RecordsStore(ctx);
    STORES.set(ctx, store);
  }
  return store;
}
