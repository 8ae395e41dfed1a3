import { defineDefects } from '../defect.js';

/** Defects of the external events webhook, outbound calling and bridge-ended (document 2). */
export const CallsDefects = defineDefects({
  'external-events-dotted-path-literal': {
    surface: 'external-events',
    breaks: ['external-events.event-id-path.dotted'],
    description: 'event_id_path is read as one literal key: a dotted path never reaches a nested payload field.',
  },
  'external-events-form-rejected': {
    surface: 'external-events',
    breaks: ['external-events.content-type.form-urlencoded', 'external-events.payload.opaque'],
    description: 'A body sent as application/x-www-form-urlencoded is refused as an unsupported content type, so form payloads are never stored.',
  },
  'external-events-unbound-accepted': {
    surface: 'external-events',
    breaks: ['external-events.errors.400-event-id-invalid'],
    description: 'An event id bound to no conversation is queued (201) instead of answered 400.',
  },
  'outbound-non-e164-accepted': {
    surface: 'outbound',
    breaks: ['outbound.trigger.e164-destination', 'outbound.errors.rejections-not-success'],
    description: 'A destination that is not E.164 (a national number) starts a call.',
  },
  'outbound-success-regresses': {
    surface: 'outbound',
    breaks: ['outbound.transition.terminal-final', 'outbound.transition.forward-only'],
    description: 'The second poll after a call ended shows calling again before the final status returns.',
  },
  'outbound-status-expires-early': {
    surface: 'outbound',
    breaks: ['outbound.status.retained-about-2h'],
    description: "A finished call's status is removed after one hour instead of about two (404 before retention ends).",
  },
  'outbound-status-never-expires': {
    surface: 'outbound',
    breaks: ['outbound.status.404-after-retention'],
    description: "A finished call's status is kept for ever: no 404 after retention.",
  },
  'bridge-state-not-updated': {
    surface: 'bridge',
    breaks: ['bridge.effect.state-updated'],
    description: 'bridge-ended is accepted but the conversation state never changes.',
  },
  'bridge-call-duration-optional': {
    surface: 'bridge',
    breaks: ['bridge.request.call-duration-required'],
    description: 'A notification without call_duration_seconds is accepted.',
  },
});
