import { type K6Summary, stat } from '../core/summary.js';

/** A scenario's headline figures, computed from its k6 summary. */
export type FigureFn = (s: K6Summary) => { figures: Record<string, number>; headline: string[] };

const ms = (v: number | undefined) => (v === undefined ? 'n/a' : `${v.toFixed(1)} ms`);
const perSec = (v: number | undefined) => (v === undefined ? 'n/a' : `${v.toFixed(1)}/s`);

/** Figures per scenario, by name; a scenario without a row still gets its thresholds reported. */
export const FIGURES: Record<string, FigureFn> = {
  'outbound-polling': (s) => {
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
  'conversations-paging': (s) => {
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
  'chat-turns': (s) => {
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
  'voice-browser': (s) => {
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
  'messaging-sockets': (s) => {
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
        `${figures.sockets_opened} sockets opened, ${figures.sockets_held_mean.toFixed(1)} held on average; past the cap ${(figures.over_cap_refused_rate * 100).toFixed(1)}% refused, ${(figures.over_cap_429_share * 100).toFixed(1)}% with 429; ${figures.events_lost} events lost, ${figures.events_duplicated} repeated`,
      ],
    };
  },
};
