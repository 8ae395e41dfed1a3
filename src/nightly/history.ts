import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { EngineKind } from '../core/engine-version.js';
import { NightMetric } from './metrics.js';

/**
 * What the verdict and the trend read of a recorded run. A load run's result (src/load/page.ts) is one: the run's
 * finishing step in src/load hands it here, and nothing in src/nightly imports src/load.
 */
export interface RunRecord {
  readonly scenario: string;
  readonly started_at: string;
  /** The engine's exit code (k6's codes), whichever engine ran. */
  readonly k6_exit_code: number;
  /** Absent in runs from before the built-in engine, which were all on k6. */
  readonly engine?: { readonly kind: EngineKind; readonly version: string } | undefined;
  readonly workload?: string | undefined;
  readonly metrics?: Readonly<Record<string, NightMetric>> | undefined;
  readonly baseline_tag?: string | undefined;
  readonly interrupted?: unknown;
}

/** The fields of a history line the trend and the verdict read; other fields pass through. */
export const HistoryLine = z.looseObject({
  scenario: z.string(),
  profile: z.string(),
  started_at: z.string(),
  passed: z.boolean(),
  k6_exit_code: z.number(),
  figures: z.record(z.string(), z.number()),
  headline: z.array(z.string()).default([]),
  thresholds: z.array(z.any()).default([]),
  duration_ms: z.number().default(0),
  target: z.string().default(''),
  engine: z.object({ kind: z.enum(['k6', 'builtin']), version: z.string() }).optional(),
  workload: z.string().optional(),
  metrics: z.record(z.string(), NightMetric).optional(),
  baseline_tag: z.string().optional(),
  interrupted: z.object({ signal: z.string(), at: z.string() }).optional(),
});

/**
 * The runs recorded in a history file, oldest first. A line that is not a run (a truncated write, a
 * hand edit) is left out rather than failing tonight's report.
 *
 * @example
 * readHistory('reports/load/chat-turns/history.jsonl').at(-1)?.started_at;
 */
export function readHistory<R extends RunRecord = RunRecord>(path: string): R[] {
  return readJsonLines(path, HistoryLine) as unknown as R[];
}

/**
 * The lines of a JSON-lines file that parse as `schema`, oldest first; the others are left out (the load and the
 * capacity histories read alike).
 *
 * @example
 * readJsonLines('reports/capacity/chat-turns/history.jsonl', CapacityRecord).length;
 */
export function readJsonLines<T>(path: string, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }): T[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        const r = schema.safeParse(JSON.parse(line));
        return r.success ? [r.data] : [];
      } catch {
        return [];
      }
    });
}

/** Appends one run (already redacted) as a line, making the file's folder when CI points elsewhere. */
export function appendHistory(path: string, line: string): void {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, `${line}\n`);
}

/**
 * The kind of engine a run was on. A record without one comes from before the built-in engine existed, when every run
 * was on k6.
 */
export const engineKindOf = (r: Pick<RunRecord, 'engine'>): EngineKind => r.engine?.kind ?? 'k6';

/**
 * The earlier runs tonight is compared with: same scenario, same target, same workload (profile plus any
 * --rate or --duration), the same kind of engine (runs of k6 and of the built-in engine are never compared), the
 * engine having finished (0, or 99 for a threshold failure), not interrupted, with metrics recorded.
 */
export function baselineOf<R extends RunRecord>(history: readonly R[], tonight: Pick<RunRecord, 'scenario' | 'workload' | 'engine'>): R[] {
  return history.filter(
    (h) =>
      h.scenario === tonight.scenario &&
      h.workload === tonight.workload &&
      engineKindOf(h) === engineKindOf(tonight) &&
      h.metrics &&
      !h.interrupted &&
      (h.k6_exit_code === 0 || h.k6_exit_code === 99),
  );
}

/**
 * The workload key: the workload's name, with --rate and --duration when they replace its own.
 *
 * @example
 * workloadOf('smoke', { duration: '5s' }); // 'smoke for 5s'
 */
export function workloadOf(
  workload: string,
  overrides?: { rate?: number | undefined; duration?: string | undefined; learned?: { file: string; compress: number } | undefined },
): string {
  const learned = overrides?.learned ? ` learned from ${overrides.learned.file}${overrides.learned.compress > 1 ? ` ×${overrides.learned.compress}` : ''}` : '';
  return `${workload}${learned}${overrides?.rate ? ` at ${overrides.rate}/s` : ''}${overrides?.duration ? ` for ${overrides.duration}` : ''}`;
}
