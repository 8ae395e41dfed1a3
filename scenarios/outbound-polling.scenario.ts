// outbound-polling, declared once: what dialtone knows of the scenario beside its k6 script (outbound-polling.ts) and
// its defaults.
import { ms, perSec, requestRate } from '../src/core/headline-figures.js';
import { stat } from '../src/core/summary.js';
import type { ScenarioDeclaration } from '../src/load/config.js';
import defaults from './outbound-polling.defaults.js';

const declaration: ScenarioDeclaration = {
  defaults,
  // A call is polled for seconds until it ends: the warm-up outlasts one.
  unit: { unit: 'calls', surface: 'calls', search: { startRate: 0.5, stepSeconds: 20, warmupSeconds: 8 } },
  figures: (s) => {
    const figures = {
      calls_per_s: stat(s, 'outbound_calls', 'rate') ?? 0,
      time_to_terminal_p95_ms: stat(s, 'outbound_time_to_terminal', 'p(95)') ?? 0,
      time_to_terminal_p50_ms: stat(s, 'outbound_time_to_terminal', 'med') ?? 0,
      polls_per_call_avg: stat(s, 'outbound_polls_per_call', 'avg') ?? 0,
      regressions: stat(s, 'outbound_regressions', 'count') ?? 0,
      lost_before_retention: stat(s, 'outbound_404_before_retention', 'count') ?? 0,
    };
    return {
      figures,
      headline: [
        `${perSec(figures.calls_per_s)} outbound calls, time to terminal status p95 ${ms(figures.time_to_terminal_p95_ms)} (median ` +
          `${ms(figures.time_to_terminal_p50_ms)})`,
        `${figures.polls_per_call_avg.toFixed(1)} polls per call; ${figures.regressions} backward transitions, ${figures.lost_before_retention} 404s ` +
          `before retention ended`,
      ],
    };
  },
  playsDialogues: false,
  playsLearned: false,
  bench: { saturation: { rate: 2000, vus: 300, figures: requestRate }, knownCapacity: 20 },
};

export default declaration;
