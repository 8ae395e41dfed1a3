// alerts-polling, declared once: what dialtone knows of the scenario beside its k6 script (alerts-polling.ts) and its
// defaults.
import { ms, perSec } from '../src/core/headline-figures.js';
import { stat } from '../src/core/summary.js';
import type { ScenarioDeclaration } from '../src/load/config.js';
import defaults from './alerts-polling.defaults.js';

const declaration: ScenarioDeclaration = {
  defaults,
  // A poll: the alert rules list and the active alerts list, two requests to the alerts surface.
  unit: { unit: 'polls', surface: 'alerts', requestsPerIteration: 2 },
  figures: (s) => {
    const figures = {
      polls_per_s: stat(s, 'iterations', 'rate') ?? 0,
      rules_list_p95_ms: stat(s, 'http_req_duration{op:alerts.rules.list}', 'p(95)') ?? 0,
      alerts_list_p95_ms: stat(s, 'http_req_duration{op:alerts.list}', 'p(95)') ?? 0,
      answered_rate: stat(s, 'alerts_poll_answered', 'value') ?? 0,
    };
    return {
      figures,
      headline: [
        `${perSec(figures.polls_per_s)} alert polls, ${(figures.answered_rate * 100).toFixed(1)}% with both lists answered`,
        `p95: alert rules list ${ms(figures.rules_list_p95_ms)}, active alerts list ${ms(figures.alerts_list_p95_ms)}`,
      ],
    };
  },
  playsDialogues: false,
  playsLearned: false,
};

export default declaration;
