// A k6 run's JSON output folded into the bounded histograms the built-in engine writes itself (histograms.json), so a
// segment on the user's k6 is merged the same way; the raw samples are then kept only when asked (--raw-samples).

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { belongsTo, type HistogramFile, HistogramRecorder, intervalKeysOf, type MetricKind } from '../core/histogram-series.js';
import type { K6Summary } from '../core/summary.js';

interface Line {
  readonly type: string;
  readonly metric: string;
  readonly data: { readonly type?: MetricKind; readonly time?: string; readonly value?: number; readonly tags?: Record<string, string> | null };
}

/**
 * The histograms of a run from its k6 JSON output (`.gz` or plain) and its summary: every summary key for the whole run,
 * the run over time's keys per interval.
 *
 * @example
 * writeFileSync(join(dir, HISTOGRAMS_FILE), JSON.stringify(await histogramsOfRaw('.work/raw.json.gz', summary)));
 */
export async function histogramsOfRaw(raw: string, summary: K6Summary): Promise<HistogramFile> {
  const keys = Object.keys(summary.metrics);
  const judged = keys.filter((k) => Object.keys(summary.metrics[k]?.thresholds ?? {}).length > 0);
  const kinds = new Map<string, MetricKind>();
  const rec = new HistogramRecorder();
  const seen = new Map<string, { whole: string[]; interval: string[] }>();
  const stream = createReadStream(raw);
  const input = raw.endsWith('.gz') ? stream.pipe(createGunzip()) : stream;
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (text === '') continue;
    const line = JSON.parse(text) as Line;
    if (line.type === 'Metric' && line.data.type) kinds.set(line.metric, line.data.type);
    if (line.type !== 'Point' || typeof line.data.value !== 'number' || !line.data.time) continue;
    const tags = line.data.tags ?? {};
    // A tag set's keys are found once: a run repeats a few tag sets many times.
    const id = `${line.metric} ${JSON.stringify(tags)}`;
    let k = seen.get(id);
    if (!k) {
      const mine = (key: string) => belongsTo(key, line.metric, tags);
      k = { whole: keys.filter(mine), interval: intervalKeysOf(line.metric, tags, judged.filter(mine)) };
      seen.set(id, k);
    }
    rec.add(kinds.get(line.metric) ?? 'trend', Date.parse(line.data.time), line.data.value, k.whole, k.interval);
  }
  return rec.toFile();
}
