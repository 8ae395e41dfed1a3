/**
 * The shapes of the coverage audit (`dialtone rules --audit`): which case shows each documented behaviour that crosses
 * operations, surfaces or delivery paths. Each surface keeps its rows in `<surface>/audit.ts`, next to its rules.
 */

/**
 * Where a behaviour is shown: the case (a rule id) that shows it, why it cannot be observed through the documented
 * surfaces (`observed`: the documents leave it open or no surface shows it), or a known gap with the reason it is
 * still one (`gap`). A row with none of these fails `tests/audit.test.ts`.
 */
export type Shown = { readonly case: string } | { readonly observed: string } | { readonly gap: string };

/** Shown by the case of rule `id`. */
export const by = (id: string): Shown => ({ case: id });
/** Not observable through the documented surfaces, and why. */
export const unobservable = (why: string): Shown => ({ observed: why });

/** A credential, key or scope rule and every operation it covers; each operation has a case of its own (`rule@operation`). */
export interface CredentialCoverage<R extends string = string, Op extends string = string> {
  readonly rule: R;
  readonly operations: readonly Op[];
}

/** One documented request field of one operation, and where its effect is shown. */
export interface FieldCoverage {
  readonly operation: string;
  readonly field: string;
  readonly shown: Shown;
}

/**
 * The paths an event travels: live (on the socket it answers, or a webhook's first delivery), on every other socket of
 * the session, replayed on reconnect, or delivered again after a failed delivery.
 */
export type DeliveryPath = 'live' | 'every-socket' | 'replay' | 'retry';

/** One documented field of one event, and where it is shown on each path it travels. */
export interface EventFieldCoverage {
  readonly event: string;
  readonly field: string;
  readonly paths: Readonly<Partial<Record<DeliveryPath, Shown>>>;
}

/** A surface's audit rows; each event row places every path of `eventPaths` (the paths the surface's events travel). */
export interface SurfaceAudit {
  readonly credentials: readonly CredentialCoverage[];
  readonly fields: readonly FieldCoverage[];
  readonly events: readonly EventFieldCoverage[];
  readonly eventPaths?: readonly DeliveryPath[];
}

/**
 * The rows of a credential rule checked on each of `operations`.
 *
 * @example
 * credentials(['chat.auth.headers-required'], ['create', 'respond', 'close'])
 */
export function credentials<const R extends string, const Op extends string>(rules: readonly R[], operations: readonly Op[]): CredentialCoverage<R, Op>[] {
  return rules.map((rule) => ({ rule, operations }));
}

/**
 * The rows of an operation's fields, each shown by one case (or with one reason).
 *
 * @example
 * fields('chat.create', { channel: { case: 'chat.create.fields-recorded' } })
 */
export function fields(operation: string, shown: Readonly<Record<string, Shown>>): FieldCoverage[] {
  return Object.entries(shown).map(([field, s]) => ({ operation, field, shown: s }));
}

/**
 * The audit of a surface with one documented operation: its credential rules on it, and where each of its request
 * fields is shown. Its events travel no path of their own.
 *
 * @example
 * oneOperation('GET /v3/…/audio', ['audio.auth.x-api-key-required'], { direction: by('audio.direction.user') })
 */
export function oneOperation(operation: string, credentialRules: readonly string[], shown: Readonly<Record<string, Shown>>): SurfaceAudit {
  return { credentials: credentials(credentialRules, [operation]), fields: fields(operation, shown), events: [] };
}
