// chat-turns, declared once: what dialtone knows of the scenario beside its k6 script (chat-turns.ts) and its defaults.
import { ms, perSec, requestRate } from '../src/core/headline-figures.js';
import { stat } from '../src/core/summary.js';
import type { ScenarioDeclaration } from '../src/load/config.js';
import defaults from './chat-turns.defaults.js';

const declaration: ScenarioDeclaration = {
  defaults,
  // An iteration: create, 4 turns, goodbye, close.
  unit: { unit: 'conversations', surface: 'chat', requestsPerIteration: 7, search: { stepSeconds: 10, warmupSeconds: 3 } },
  figures: (s) => {
    const figures = {
      turns_per_s: stat(s, 'http_reqs{op:chat.respond}', 'rate') ?? 0,
      turn_p95_ms: stat(s, 'http_req_duration{op:chat.respond}', 'p(95)') ?? 0,
      turn_p50_ms: stat(s, 'http_req_duration{op:chat.respond}', 'med') ?? 0,
      conversations_per_s: stat(s, 'iterations', 'rate') ?? 0,
      error_rate: stat(s, 'http_req_failed', 'value') ?? 0,
    };
    return {
      figures,
      headline: [
        `${perSec(figures.turns_per_s)} chat turns, p95 ${ms(figures.turn_p95_ms)} (median ${ms(figures.turn_p50_ms)})`,
        `${perSec(figures.conversations_per_s)} conversations, HTTP error rate ${(figures.error_rate * 100).toFixed(2)}%`,
      ],
    };
  },
  playsDialogues: true,
  playsLearned: true,
  bench: { saturation: { rate: 5000, vus: 16, figures: requestRate }, knownCapacity: 18 },
};

export default declaration;
