// voice-calls, declared once: what dialtone knows of the scenario beside its k6 script (voice-calls.ts) and its defaults.
import type { ScenarioDeclaration } from '../src/load/config.js';
import defaults from './voice-calls.defaults.js';

const declaration: ScenarioDeclaration = {
  defaults,
  // A werift call in the engine (the nightly workload, which steps run: 4 turns), about 15 s. A known voice capacity is
  // calls at once (voice=N: the agent's seats), so N seats carry N / (call seconds) calls started a second; the closed
  // model (--model closed) holds calls and finds N itself.
  unit: {
    unit: 'calls',
    surface: 'voice',
    search: { startRate: 0.5, stepSeconds: 30, warmupSeconds: 10, gracefulStopSeconds: 15 },
    // A held call connects and hears the greeting in about 2 s, then takes a turn every 4 s: 30 s steps give each call
    // five or six turns in the steady part, and the last turn is answered within the graceful stop.
    closedSearch: { stepSeconds: 30, warmupSeconds: 6, gracefulStopSeconds: 10 },
    // A held call's messages are its turns: taken at the message rate, answered as voice_call_turns counts them.
    closedWork: {
      held: 'calls',
      work: 'turns',
      done: 'taken',
      pace: (k, rate) => `every call taking ${(k * rate).toFixed(2)} turns/s`,
      doing: 'taking turns at',
      rate: 'turns a second per call',
    },
  },
  // No headline figures: its report gives the thresholds, each call's media figures among them.
  figures: () => ({ figures: {}, headline: [] }),
  playsDialogues: false,
  playsLearned: false,
  // Benchmarked by scripts/bench-voice-calls.ts (calls held per engine core), not by the generic benches.
};

export default declaration;
