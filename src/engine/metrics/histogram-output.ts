// `--out histograms=FILE`, the built-in engine's own output (k6 has none like it): every sample folded into bounded
// histograms (src/core/histogram-series.ts) and written once at the end, so a segment's file does not grow with its
// request count and the run writes no line per sample.

import { writeFile } from 'node:fs/promises';
import { belongsTo, HistogramRecorder, intervalKeysOf } from '../../core/histogram-series.js';
import type { MetricStore } from './store.js';

/** The keys a (metric, tag set) is recorded under: the summary's and the run over time's. */
interface Keys {
  readonly whole: readonly string[];
  readonly interval: readonly string[];
}

/**
 * The keys each (metric, tag set) is recorded under, found once per pair and cached by tag set id; the live feed
 * (src/engine/run/live-feed.ts) records under the same keys.
 *
 * @example
 * const keysOf = sampleKeys(store); keysOf('http_req_duration', 3).interval; // ['http_req_duration{op:chat.respond}']
 */
export function sampleKeys(store: MetricStore): (metric: string, tagSetId: number) => Keys {
  const keys = new Map<string, (Keys | undefined)[]>();
  const find = (metric: string, tagSetId: number): Keys => {
    const tags = store.tagsOf(tagSetId);
    const entries = store.entries().filter((e) => belongsTo(e.key, metric, tags));
    const judged = entries.filter((e) => e.thresholds.length > 0).map((e) => e.key);
    const k = { whole: entries.map((e) => e.key), interval: intervalKeysOf(metric, tags, judged) };
    const byTags = keys.get(metric) ?? [];
    byTags[tagSetId] = k;
    keys.set(metric, byTags);
    return k;
  };
  return (metric, tagSetId) => keys.get(metric)?.[tagSetId] ?? find(metric, tagSetId);
}

/**
 * Opens the histograms output on the store; `close` writes the file.
 *
 * @example
 * const out = openHistogramOutput('reports/load/chat-turns/histograms.json', store);
 * // … the run …
 * await out.close();
 */
export function openHistogramOutput(path: string, store: MetricStore) {
  const rec = new HistogramRecorder();
  const keysOf = sampleKeys(store);
  const off = store.onSample((metric, tagSetId, t, value) => {
    const k = keysOf(metric, tagSetId);
    rec.add(store.typeOf(metric) ?? 'trend', t, value, k.whole, k.interval);
  });
  return {
    ready: () => Promise.resolve(),
    close: async () => {
      off();
      await writeFile(path, `${JSON.stringify(rec.toFile())}\n`);
    },
  };
}
