import { defineDefects } from '../defect.js';

/** Defects of the conversations list, the concurrency series and audio (document 2). Each breaks documented rules the way a real regression would. */
export const RecordsDefects = defineDefects({
  'conversations-record-default-variant': {
    surface: 'conversations',
    breaks: ['conversations.record.shows-what-chat-sent'],
    description: "A conversation's record names the project's default variant, whatever variant create routed it to.",
  },
  'conversations-cursor-skips-edge': {
    surface: 'conversations',
    breaks: ['conversations.cursor.walk-complete', 'conversations.cursor.pass-returned'],
    description: 'A page reached by cursor starts one record late: the record at every page edge is skipped.',
  },
  'conversations-malformed-cursor-first-page': {
    surface: 'conversations',
    breaks: ['conversations.cursor.malformed-400'],
    description: 'A malformed cursor is ignored and the first page is answered (200) instead of 400.',
  },
  'conversations-offset-beats-cursor': {
    surface: 'conversations',
    breaks: ['conversations.cursor.wins-over-offset'],
    description: 'When cursor and offset are both sent, the offset decides the page.',
  },
  'conversations-newest-first': {
    surface: 'conversations',
    breaks: ['conversations.order.ascending'],
    description: 'Records come newest first (descending started_at), consistently across pages.',
  },
  'conversations-env-default-all': {
    surface: 'conversations',
    breaks: ['conversations.filter.client-env-default-live'],
    description: 'Without client_env, records of every environment are returned instead of live only.',
  },
  'conversations-v1-cursor': {
    surface: 'conversations',
    breaks: ['conversations.v1.no-cursor'],
    description: 'The v1 list response carries a cursor field like v3.',
  },
  'concurrency-start-rounded-up': {
    surface: 'concurrency',
    breaks: ['concurrency.window.start-rounded-down'],
    description: 'start_time is rounded up to the next 5-minute mark, so the window containing it is missing.',
  },
  'concurrency-span-eight-days': {
    surface: 'concurrency',
    breaks: ['concurrency.window.max-one-week'],
    description: 'Off by one day: start_time and end_time up to eight days apart are accepted.',
  },
  'concurrency-slice-language-ok': {
    surface: 'concurrency',
    breaks: ['concurrency.slice-by.language-501'],
    description: 'slice_by=language is ignored and answered 200 instead of 501.',
  },
  'concurrency-other-project-key-allowed': {
    surface: 'concurrency',
    breaks: ['concurrency.errors.401-403-key', 'concurrency.auth.analytics-permission'],
    description: "A key issued for another project is served this project's concurrency (no 403).",
  },
  'conversations-agent-duration-in-ms': {
    surface: 'conversations',
    breaks: ['conversations.record.parts-within-whole'],
    description:
      "polyai_duration is reported in milliseconds (the agent service's own unit, passed through unconverted) while total_duration stays in seconds, so " +
      'the agent-handled part of a call exceeds the whole call.',
  },
  'conversations-in-progress-filter-stale': {
    surface: 'conversations',
    breaks: ['conversations.filter.in-progress-selects'],
    description:
      'The in_progress filter reads a search index written when a conversation was first stored and never updated when it ends, so a finished ' +
      'conversation (in_progress false in its own record) is still listed under in_progress=true, and missing under false.',
  },
  'conversations-turn-type-ignored': {
    surface: 'conversations',
    breaks: ['conversations.filter.turn-type-values'],
    description: 'A transcript search drops turn_type on its way to the search backend, so turn_type=user or agent matches either side of a turn.',
  },
  'audio-redaction-not-enforced': {
    surface: 'audio',
    breaks: ['audio.redaction.no-pii-false-redacted'],
    description: 'A key without PII access gets the raw recording when redacted is false or omitted.',
  },
  'audio-agent-gets-combined': {
    surface: 'audio',
    breaks: ['audio.direction.agent'],
    description: 'direction=agent returns the combined recording.',
  },
});
