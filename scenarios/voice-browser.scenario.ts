// voice-browser, declared once: what dialtone knows of the scenario beside its k6 script (voice-browser.ts) and its
// defaults.
import { ms } from '../src/core/headline-figures.js';
import { stat } from '../src/core/summary.js';
import type { ScenarioDeclaration } from '../src/load/config.js';
import defaults from './voice-browser.defaults.js';

const declaration: ScenarioDeclaration = {
  defaults,
  // A browser iteration is a Chromium start and several calls held for seconds: about half a minute. A known voice
  // capacity is calls at once (the gateway's agent seats), not pieces of work a second: 4 calls a browser (the nightly
  // workload, which capacity steps run) hold 4 seats for about the iteration.
  unit: {
    unit: 'browsers',
    surface: 'voice',
    search: { startRate: 0.02, stepSeconds: 150, warmupSeconds: 45, gracefulStopSeconds: 60, maxSteps: 6, maxSeconds: 1500 },
  },
  figures: (s) => {
    const figures = {
      calls: stat(s, 'voice_browser_calls', 'count') ?? 0,
      browsers: stat(s, 'iterations', 'count') ?? 0,
      time_to_connected_p50_ms: stat(s, 'voice_browser_time_to_connected', 'med') ?? 0,
      time_to_connected_p95_ms: stat(s, 'voice_browser_time_to_connected', 'p(95)') ?? 0,
      first_agent_audio_p50_ms: stat(s, 'voice_browser_time_to_first_agent_audio', 'med') ?? 0,
      first_agent_audio_p95_ms: stat(s, 'voice_browser_time_to_first_agent_audio', 'p(95)') ?? 0,
      success_rate: stat(s, 'voice_browser_call_success', 'value') ?? 0,
      samples_received: stat(s, 'voice_browser_samples', 'count') ?? 0,
      samples_per_call_min: stat(s, 'voice_browser_samples_received', 'min') ?? 0,
      concealed_share_p95: stat(s, 'voice_browser_concealed_share', 'p(95)') ?? 0,
    };
    return {
      figures,
      headline: [
        `${figures.calls} browser voice calls in ${figures.browsers} Chromium runs, ${(figures.success_rate * 100).toFixed(1)}% successful`,
        `time to connected median ${ms(figures.time_to_connected_p50_ms)}, p95 ${ms(figures.time_to_connected_p95_ms)}; first agent audio median ` +
          `${ms(figures.first_agent_audio_p50_ms)}, p95 ${ms(figures.first_agent_audio_p95_ms)}`,
        `${figures.samples_received} inbound samples decoded (at least ${figures.samples_per_call_min} a connected call), p95 concealed ` +
          `${(figures.concealed_share_p95 * 100).toFixed(1)}%`,
      ],
    };
  },
  playsDialogues: false,
  playsLearned: false,
  bench: {
    saturation: {
      rate: 2,
      vus: 2,
      seconds: 20,
      figures: (s) => ({ 'calls held': (stat(s, 'voice_browser_calls', 'count') ?? 0) * (stat(s, 'voice_browser_call_success', 'value') ?? 0) }),
      minimalFigures: (s) => ({ 'calls held': stat(s, 'calls_connected', 'count') ?? 0 }),
    },
    knownCapacity: 4,
  },
};

export default declaration;
