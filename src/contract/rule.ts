import { z } from 'zod';

/**
 * The surfaces of the platform, one per family of endpoints. Rule ids start with one of these,
 * so `--only 'chat.*'` selects a surface.
 */
export const Surface = z.enum([
  'chat',
  'messaging',
  'voice',
  'conversations',
  'concurrency',
  'audio',
  'external-events',
  'outbound',
  'bridge',
  'agents',
  'alerts',
  'webhooks',
]);
export type Surface = z.infer<typeof Surface>;

/** What kind of documented statement a rule is. `open` marks what the documents leave "not shown". */
export const RuleKind = z.enum(['status', 'error-text', 'transition', 'limit', 'field', 'enum', 'event', 'open']);
export type RuleKind = z.infer<typeof RuleKind>;

/**
 * One documented rule. The id is stable and hierarchical (`surface.area.name`, lowercase kebab).
 * `open: true` rules are what the documents leave open: a case records what it observed and never
 * fails the gate. `alternatives` lists each reading of a documented contradiction; every one passes.
 */
export const Rule = z.object({
  id: z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+){2,}$/, 'rule id must be surface.area.name in lowercase kebab'),
  doc: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  section: z.string().min(1),
  statement: z.string().min(1),
  kind: RuleKind,
  surface: Surface,
  alternatives: z.array(z.string()).optional(),
  open: z.literal(true).optional(),
});
export type Rule = z.infer<typeof Rule>;

/**
 * Declares a surface's rules as a record keyed by id, so a typo in a case's rule id is a type error.
 *
 * @example
 * export const ChatRules = defineRules({
 *   'chat.close.success-true': { doc: 1, section: 'Resources / Chat: close', kind: 'field',
 *     surface: 'chat', statement: 'Close returns success: true.' },
 * });
 */
export function defineRules<const T extends Record<string, Omit<Rule, 'id'>>>(rules: T): { [K in keyof T]: Rule & { id: K } } {
  const out = {} as { [K in keyof T]: Rule & { id: K } };
  for (const [id, rule] of Object.entries(rules)) {
    (out as Record<string, Rule>)[id] = { id, ...rule };
  }
  return out;
}

/**
 * One entry of the error catalogue: a text the platform sends and the status it comes with.
 * `documented: false` marks a text the reference target chose where the documents are silent;
 * the suite never fails a real target for sending another one.
 */
export interface ErrorEntry {
  readonly status?: number;
  readonly text: string;
  /** A machine code where the document gives one (voice gateway codes, for example). */
  readonly code?: string;
  readonly documented: boolean;
}

/**
 * Declares a group of error entries as typed constants (Prism style): the reference target sends
 * `Errors.X.text` and the suite asserts the same constant.
 *
 * @example
 * export const AccessTokenErrors = defineErrors({
 *   MISSING_HEADERS: { status: 401, text: 'Missing authentication headers', documented: true },
 * });
 */
export function defineErrors<const T extends Record<string, ErrorEntry>>(errors: T): T {
  return errors;
}
