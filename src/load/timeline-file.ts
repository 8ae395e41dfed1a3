// Reads a run's samples (k6's JSON output, gzipped or not; one file per engine process or segment) into its timeline
// (src/load/timeline.ts), and keeps the timeline beside the summary as timeline.json.
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { addSample, ERROR_METRIC, emptyTally, LATENCY_METRIC, type Sample, type Timeline, timelineOf } from './timeline.js';

/** The timeline of a run, in its report directory. */
export const TIMELINE_FILE = 'timeline.json';

/** The metrics every timeline reads; an SLO's metric is read too. */
const ALWAYS = ['http_reqs', 'iterations', 'dropped_iterations', 'vus', ERROR_METRIC, LATENCY_METRIC];

const METRIC_AT_END = /"metric":"([^"]+)"\}\s*$/;

/**
 * The timeline of the samples in `files` (k6's JSON output, `.gz` or plain), each file a source whose VUs add to the
 * others'; SLO keys name the further series to keep. Files that are missing are skipped; undefined when none held a
 * sample.
 *
 * @example
 * const timeline = await readTimeline(['reports/load/chat-turns/raw.json.gz'], [{ key: 'checks', expressions: ['rate>0.99'] }]);
 */
export async function readTimeline(
  files: readonly string[],
  slos: readonly { readonly key: string; readonly expressions: readonly string[] }[],
): Promise<Timeline | undefined> {
  const tally = emptyTally(slos);
  const wanted = new Set([...ALWAYS, ...tally.watched.map((w) => w.metric)]);
  let source = 0;
  for (const file of files) {
    if (!existsSync(file)) continue;
    const types = new Map<string, Sample['type']>();
    const stream = createReadStream(file);
    const input = file.endsWith('.gz') ? stream.pipe(createGunzip()) : stream;
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      // Most samples are of metrics no plot draws: their lines are skipped before they are parsed.
      const last = METRIC_AT_END.exec(line)?.[1];
      if (last !== undefined && !wanted.has(last)) continue;
      if (last === undefined && !line.includes('"metric"')) continue;
      // A line whose name is not last (another writer's key order) is parsed to find it.
      const entry = JSON.parse(line) as {
        type: string;
        metric: string;
        data: { type?: Sample['type']; time?: string; value?: number; tags?: Record<string, string> | null };
      };
      const name = entry.metric;
      if (!wanted.has(name)) continue;
      if (entry.type === 'Metric') types.set(name, entry.data.type);
      else if (entry.type === 'Point' && entry.data.time && typeof entry.data.value === 'number')
        addSample(tally, {
          metric: name,
          type: types.get(name),
          timeMs: Date.parse(entry.data.time),
          value: entry.data.value,
          tags: entry.data.tags ?? {},
          source,
        });
    }
    source++;
  }
  return timelineOf(tally);
}

/** Where a run's samples for its timeline go, the engine flags that write them, and why there are none when not. */
export interface TimelineSamples {
  readonly args: readonly string[];
  /** One file per engine process (a segment of a merged run is one). */
  readonly files: readonly string[];
  readonly missing: string | undefined;
}

/** The longest run that keeps its samples for the timeline unless asked: reading them back grows with the run. */
export const TIMELINE_MAX_S = 900;

/**
 * Whether a run keeps k6's JSON output for its timeline: always with --dashboard; otherwise when the run neither pushes
 * the generator's limit (`atLimit`: the capacity workload, or --rate) nor runs past TIMELINE_MAX_S.
 *
 * @example
 * keepsSamples({ dashboard: undefined, atLimit: false, seconds: 300 }); // true (a nightly run)
 * keepsSamples({ dashboard: undefined, atLimit: false, seconds: 3600 }); // false (a learned hour, a soak)
 */
export function keepsSamples(run: { readonly dashboard: boolean | undefined; readonly atLimit: boolean; readonly seconds: number | undefined }): boolean {
  return run.dashboard === true || (!run.atLimit && (run.seconds ?? 0) <= TIMELINE_MAX_S);
}

/**
 * The samples a run keeps for its timeline: a segment's raw samples (when it keeps or folds them), else, when
 * `wanted` (keepsSamples), k6's JSON output gzipped into the run's scratch folder (`work`, removed after the report). A
 * run at the limit keeps none unless asked: writing every sample costs the generator CPU there.
 *
 * @example
 * timelineSamples({ wanted: true, work: 'reports/load/chat-turns/.work' });
 * // { args: ['--out', 'json=reports/load/chat-turns/.work/samples.json.gz'], files: ['…/samples.json.gz'], missing: undefined }
 */
export function timelineSamples(kept: { readonly wanted: boolean; readonly work: string; readonly segmentRaw?: string | undefined }): TimelineSamples {
  if (kept.segmentRaw) return { args: [], files: [kept.segmentRaw], missing: undefined };
  if (!kept.wanted)
    return {
      args: [],
      files: [],
      missing:
        `a run that pushes the generator's limit (the capacity workload, or --rate) or lasts longer than ${TIMELINE_MAX_S / 60} minutes keeps ` +
        `its samples only with --dashboard`,
    };
  const file = join(kept.work, 'samples.json.gz');
  return { args: ['--out', `json=${file}`], files: [file], missing: undefined };
}

/**
 * The timeline of a finished run from the samples it kept, or why there is none.
 *
 * @example
 * const { timeline, missing } = await timelineOfRun(samples, thresholdsOf(summary));
 */
export async function timelineOfRun(
  s: TimelineSamples,
  thresholds: readonly { readonly metric: string; readonly expression: string }[],
): Promise<{ timeline: Timeline | undefined; missing: string | undefined }> {
  if (s.files.length === 0) return { timeline: undefined, missing: s.missing };
  const slos = [...new Set(thresholds.map((t) => t.metric))].map((key) => ({
    key,
    expressions: thresholds.filter((t) => t.metric === key).map((t) => t.expression),
  }));
  try {
    const timeline = await readTimeline(s.files, slos);
    return { timeline, missing: timeline ? undefined : 'the run wrote no sample' };
  } catch (e) {
    // A run cut short can leave a truncated file: the page says so, the rest of the report stands.
    return { timeline: undefined, missing: `its samples could not be read (${(e as Error).message})` };
  }
}
