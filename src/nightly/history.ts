import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { EngineKind } from '../core/engine-version.js';
import type { LoadResult } from '../load/page.js';
import { NightMetric } from './metrics.js';

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
export function readHistory(path: string): LoadResult[] {
  return readJsonLines(path, HistoryLine) as LoadResult[];
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
export const engineKindOf = (r: Pick<LoadResult, 'engine'>): EngineKind => r.engine?.kind ?? 'k6';

/**
 * The earlier runs tonight is compared with: same scenario, same target, same workload (profile plus any
 * --rate or --duration), the same kind of engine (runs of k6 and of the built-in engine are never compared), the
 * engine having finished (0, or 99 for a threshold failure), not interrupted, with metrics recorded.
 */
export function baselineOf(history: readonly LoadResult[], tonight: Pick<LoadResult, 'scenario' | 'workload' | 'engine'>): LoadResult[] {
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
 * The workload key: the load profile, with --rate and --duration when they replace its own.
 *
 * @example
 * workloadOf('smoke', { duration: '5s' }); // 'smoke for 5s'
 */
export function workloadOf(
  profile: string,
  overrides?: { rate?: number | undefined; duration?: string | undefined; learned?: { file: string; compress: number } | undefined },
): string {
  const learned = overrides?.learned ? ` learned from ${overrides.learned.file}${overrides.learned.compress > 1 ? ` ×${overrides.learned.compress}` : ''}` : '';
  return `${profile}${learned}${overrides?.rate ? ` at ${overrides.rate}/s` : ''}${overrides?.duration ? ` for ${overrides.duration}` : ''}`;
}
