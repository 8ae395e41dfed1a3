import { z } from 'zod';

/**
 * Names the documents leave out, as the reference target spells them. A platform that spells them its own way names
 * them in its profile (`names`); the cases and scenarios use logical names and the clients put these on the wire.
 */
export const REFERENCE_NAMES = {
  /** Document 1 names only the join request; these four client event types are the reference target's. */
  messaging_events: {
    user_message: 'EVENT_TYPE_USER_MESSAGE',
    typing_indicator: 'EVENT_TYPE_TYPING_INDICATOR',
    delivery_receipt: 'EVENT_TYPE_DELIVERY_RECEIPT',
    request_live_agent: 'EVENT_TYPE_REQUEST_LIVE_AGENT',
  },
  /** Document 2 names the outbound trigger's contents but no field names. */
  outbound_trigger: { to_number: 'to_number', from_number: 'from_number', metadata: 'metadata', encryption: 'encryption' },
  /** Document 3 names no real-time config page; the reference defines this one through its control surface. */
  realtime_config_page: 'site',
} as const;

const Name = z.string().min(1);
const named = <T extends Record<string, string>>(defaults: T) =>
  z.strictObject(Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, Name.default(v)])) as { [K in keyof T]: z.ZodDefault<typeof Name> });

/** The `names` field of a profile: every name optional, the reference's as default. */
export const PlatformNames = z
  .strictObject({
    messaging_events: named(REFERENCE_NAMES.messaging_events).default(REFERENCE_NAMES.messaging_events),
    outbound_trigger: named(REFERENCE_NAMES.outbound_trigger).default(REFERENCE_NAMES.outbound_trigger),
    realtime_config_page: Name.default(REFERENCE_NAMES.realtime_config_page),
  })
  .default(REFERENCE_NAMES);
export type PlatformNames = z.infer<typeof PlatformNames>;

/** Logical client event types (the reference's spellings) to the names a platform uses, and back. */
export type MessagingEventName = keyof typeof REFERENCE_NAMES.messaging_events;

/**
 * Maps an event type between the reference spelling the cases use and the platform's.
 *
 * @example
 * const map = eventNameMap({ ...REFERENCE_NAMES.messaging_events, user_message: 'USER_MSG' });
 * map.toWire('EVENT_TYPE_USER_MESSAGE') // 'USER_MSG'
 * map.toReference('USER_MSG') // 'EVENT_TYPE_USER_MESSAGE'
 */
export function eventNameMap(names: PlatformNames['messaging_events']) {
  const pairs = (Object.keys(REFERENCE_NAMES.messaging_events) as MessagingEventName[]).map((k) => [REFERENCE_NAMES.messaging_events[k], names[k]] as const);
  const wire = new Map<string, string>(pairs);
  const reference = new Map<string, string>(pairs.map(([a, b]) => [b, a]));
  return {
    toWire: (type: string) => wire.get(type) ?? type,
    toReference: (type: string) => reference.get(type) ?? type,
  };
}
