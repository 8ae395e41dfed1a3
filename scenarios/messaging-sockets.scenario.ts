// messaging-sockets, declared once: what dialtone knows of the scenario beside its k6 script (messaging-sockets.ts) and
// its defaults.
import { ms, perSec, socketRates } from '../src/core/headline-figures.js';
import { stat } from '../src/core/summary.js';
import type { ScenarioDeclaration } from '../src/load/config.js';
import defaults from './messaging-sockets.defaults.js';

const declaration: ScenarioDeclaration = {
  defaults,
  // An iteration: the session, 12 handshakes (10 up to the cap, the refused 11th, the reopen) and 5 frames (the join
  // request, 4 messages); the access token is one per VU, not per session, so it is left out (a few per cent of a
  // step's work, most of it in the warm-up).
  unit: {
    unit: 'sessions',
    surface: 'messaging',
    requestsPerIteration: 18,
    search: { startRate: 0.5, stepSeconds: 20, warmupSeconds: 8 },
    closedWork: {
      held: 'sessions',
      work: 'messages',
      done: 'sent',
      pace: (k, rate) => `${k} sockets to one, every socket sending ${rate.toFixed(2)} messages/s (${(k * rate).toFixed(1)} messages/s a session)`,
      doing: 'sending',
      rate: 'user messages a second per socket',
    },
  },
  figures: (s) => {
    const p95 = (metric: string) => stat(s, metric, 'p(95)') ?? 0;
    const opened = stat(s, 'messaging_sockets_opened', 'rate') ?? 0;
    const overCapAttempts = (stat(s, 'messaging_socket_over_cap_refused', 'passes') ?? 0) + (stat(s, 'messaging_socket_over_cap_refused', 'fails') ?? 0);
    const figures = {
      messages_per_s: stat(s, 'messaging_messages', 'rate') ?? 0,
      events_received_per_s: stat(s, 'messaging_events_received', 'rate') ?? 0,
      sessions_per_s: stat(s, 'iterations', 'rate') ?? 0,
      history_batch_p95_ms: p95('messaging_time_to_history_batch'),
      agent_joined_p95_ms: p95('messaging_time_to_agent_joined'),
      first_chunk_p95_ms: p95('messaging_time_to_first_chunk'),
      full_reply_p95_ms: p95('messaging_time_to_full_reply'),
      reconnect_replay_p95_ms: p95('messaging_reconnect_replay_time'),
      sockets_opened: stat(s, 'messaging_sockets_opened', 'count') ?? 0,
      // Little's law: sockets opened per second times how long one stays open is the mean number held at once.
      sockets_held_mean: opened * ((stat(s, 'ws_session_duration', 'avg') ?? 0) / 1000),
      over_cap_refused_rate: stat(s, 'messaging_socket_over_cap_refused', 'value') ?? 0,
      // The refusal's status is only a tag of k6's ws_sessions: the share of attempts past the cap answered 429.
      over_cap_429_share: (stat(s, 'ws_sessions{op:messaging.ws.over_cap,status:429}', 'count') ?? 0) / Math.max(1, overCapAttempts),
      events_lost: stat(s, 'messaging_events_lost', 'count') ?? 0,
      events_duplicated: stat(s, 'messaging_events_duplicated', 'count') ?? 0,
    };
    return {
      figures,
      headline: [
        `${perSec(figures.messages_per_s)} messages (${perSec(figures.sessions_per_s)} sessions, ${perSec(figures.events_received_per_s)} events received)`,
        `p95: history batch ${ms(figures.history_batch_p95_ms)}, agent joined ${ms(figures.agent_joined_p95_ms)}, first chunk ` +
          `${ms(figures.first_chunk_p95_ms)}, full reply ${ms(figures.full_reply_p95_ms)}, reconnect replay ${ms(figures.reconnect_replay_p95_ms)}`,
        `${figures.sockets_opened} sockets opened, ${figures.sockets_held_mean.toFixed(1)} held on average; past the cap ` +
          `${(figures.over_cap_refused_rate * 100).toFixed(1)}% refused, ${(figures.over_cap_429_share * 100).toFixed(1)}% with 429; ` +
          `${figures.events_lost} events lost, ${figures.events_duplicated} repeated`,
      ],
    };
  },
  playsDialogues: true,
  playsLearned: false,
  // 18 pieces of work a session: 3 sessions a second.
  bench: { saturation: { rate: 500, vus: 30, figures: socketRates }, knownCapacity: 54 },
};

export default declaration;
