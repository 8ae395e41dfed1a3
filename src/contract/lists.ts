import type { RuleId } from './index.js';

type Item = Record<string, unknown>;

/**
 * A documented filter of a list: every item of an answer to a request that sends it holds it. `holds` answers
 * undefined where an item cannot be judged (the field it reads is absent, as a whitelisted v1 record may be).
 */
export interface ListFilter {
  readonly rule: RuleId;
  /** Whether an item holds the filter, given the parameter's values (every value of a repeated parameter) and the query. */
  readonly holds: (item: Item, values: readonly string[], query: URLSearchParams) => boolean | undefined;
  /** The filter also applies when the parameter is absent, with its documented default value, under the rule that gives it. */
  readonly default?: { readonly value: string; readonly rule: RuleId };
  /** The filter applies only when the query also carries these parameters with these values. */
  readonly when?: Readonly<Record<string, string>>;
}

/** What the documents say of one list operation's answers: where its items are, what each filter keeps, their order, the cap. */
export interface ListFacts {
  /** The items of an answer. */
  readonly items: (body: unknown) => readonly Item[] | undefined;
  /** By query parameter. */
  readonly filters: Readonly<Record<string, ListFilter>>;
  /** The documented order of items: by a key, each no earlier (ascending) or no later (descending) than the one before. */
  readonly order?: { readonly rule: RuleId; readonly key: string; readonly direction: 'ascending' | 'descending' };
  /** A parameter that caps the number of items. */
  readonly cap?: { readonly param: string; readonly rule: RuleId };
}

const itemsAt =
  (key: string) =>
  (body: unknown): readonly Item[] | undefined => {
    const list = (body as Record<string, unknown> | null)?.[key];
    return Array.isArray(list) ? (list as Item[]) : undefined;
  };

/** An item field equal to the parameter's value; undefined where the item lacks the field. */
const equals =
  (field: string, parse: (v: string) => unknown = (v) => v) =>
  (item: Item, values: readonly string[]): boolean | undefined =>
    item[field] === undefined || item[field] === null ? undefined : item[field] === parse(values[0] ?? '');

const bool = (v: string) => v === 'true';

const at = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : Number.NaN);

/** A transcript search: some turn holds the query on the sides turn_type names (both when unset), case aside. */
function matchesTranscript(item: Item, query: URLSearchParams): boolean | undefined {
  const needle = (query.get('query') ?? '').toLowerCase();
  const turns = item.turns;
  // Turns are empty where transcript visibility is off: nothing to judge.
  if (!Array.isArray(turns) || turns.length === 0 || needle === '') return undefined;
  const side = query.get('turn_type');
  const sides = (t: Item) => [side !== 'agent' ? t.user_input : undefined, side !== 'user' ? t.agent_response : undefined];
  return (turns as Item[]).some((t) => sides(t).some((s) => typeof s === 'string' && s.toLowerCase().includes(needle)));
}

/** Document 2, the conversations list: its filters, ascending order and limit, on v3, v2 and v1 alike. */
export const CONVERSATIONS_LIST: ListFacts = {
  items: itemsAt('conversations'),
  filters: {
    in_progress: { rule: 'conversations.filter.in-progress-selects', holds: equals('in_progress', bool) },
    client_env: {
      rule: 'conversations.filter.client-env-values',
      holds: equals('environment'),
      default: { value: 'live', rule: 'conversations.filter.client-env-default-live' },
    },
    channel: {
      rule: 'conversations.filter.channel-repeatable',
      holds: (item, values) => (typeof item.channel === 'string' ? values.includes(item.channel) : undefined),
    },
    variant_id: { rule: 'conversations.filter.variant-id', holds: equals('variant_id') },
    variant_name: { rule: 'conversations.filter.variant-name-encoded', holds: equals('variant_name') },
    start_time: {
      rule: 'conversations.filter.time-range',
      holds: (item, values) => (Number.isNaN(at(item.started_at)) ? undefined : at(item.started_at) >= at(values[0])),
    },
    end_time: {
      rule: 'conversations.filter.time-range',
      holds: (item, values) => (Number.isNaN(at(item.started_at)) ? undefined : at(item.started_at) <= at(values[0])),
    },
    query: {
      rule: 'conversations.filter.turn-type-values',
      holds: (item, _values, query) => matchesTranscript(item, query),
      when: { query_type: 'transcript' },
    },
  },
  order: { rule: 'conversations.order.ascending', key: 'started_at', direction: 'ascending' },
  cap: { param: 'limit', rule: 'conversations.limit.page-size' },
};

/** Document 3, the alert rules list: its four filters. */
export const ALERT_RULES_LIST: ListFacts = {
  items: itemsAt('data'),
  filters: {
    enabled: { rule: 'alerts.list.filter-enabled', holds: equals('enabled', bool) },
    metric: { rule: 'alerts.list.filter-metric', holds: equals('metric') },
    project_id: { rule: 'alerts.list.filter-project-id', holds: equals('project_id') },
    state: { rule: 'alerts.list.filter-state', holds: equals('state') },
  },
};

/** Document 3, the deployments list: the environment filter, newest first, limit caps the count. */
export const DEPLOYMENTS_LIST: ListFacts = {
  items: itemsAt('deployments'),
  filters: { environment: { rule: 'agents.deployments.environment-filter', holds: equals('environment') } },
  order: { rule: 'agents.deployments.newest-first', key: 'createdAt', direction: 'descending' },
  cap: { param: 'limit', rule: 'agents.deployments.limit-caps-count' },
};

/** Document 2, the concurrency series: intervals ascending by time. */
export const CONCURRENCY_SERIES: ListFacts = {
  items: itemsAt('intervals'),
  filters: {},
  order: { rule: 'concurrency.window.ascending', key: 'time', direction: 'ascending' },
};
