// conversations-paging, declared once: what dialtone knows of the scenario beside its k6 script (conversations-paging.ts)
// and its defaults.
import { ms, perSec, requestRate } from '../src/core/headline-figures.js';
import { stat } from '../src/core/summary.js';
import type { ScenarioDeclaration } from '../src/load/config.js';
import defaults from './conversations-paging.defaults.js';

const declaration: ScenarioDeclaration = {
  defaults,
  // A walk reads the whole records window (dozens of pages), seconds here: a step must hold a dozen or more.
  unit: { unit: 'walks', surface: 'records', search: { startRate: 0.25, stepSeconds: 75, warmupSeconds: 15, gracefulStopSeconds: 15 } },
  figures: (s) => {
    const figures = {
      records_per_s: stat(s, 'paging_records', 'rate') ?? 0,
      walk_records_per_s_median: stat(s, 'paging_walk_records_per_s', 'med') ?? 0,
      walk_p95_ms: stat(s, 'paging_walk_duration', 'p(95)') ?? 0,
      page_p95_ms: stat(s, 'http_req_duration{op:conversations.list}', 'p(95)') ?? stat(s, 'http_req_duration', 'p(95)') ?? 0,
      repeats: stat(s, 'paging_repeats', 'count') ?? 0,
      skips: stat(s, 'paging_skips', 'count') ?? 0,
    };
    return {
      figures,
      headline: [
        `${perSec(figures.records_per_s)} records served by cursor across VUs; one walk reads ${perSec(figures.walk_records_per_s_median)} (median)`,
        `page p95 ${ms(figures.page_p95_ms)}, walk p95 ${ms(figures.walk_p95_ms)}; ${figures.repeats} repeated, ${figures.skips} skipped`,
      ],
    };
  },
  playsDialogues: false,
  playsLearned: false,
  bench: { saturation: { rate: 200, vus: 6, figures: requestRate }, knownCapacity: 10 },
};

export default declaration;
