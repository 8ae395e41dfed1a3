// Each scenario's unit of work and the reference-target surface it loads: a known capacity of N
// requests per second on that surface is N / (requests per iteration) iterations per second.

export interface ScenarioUnit {
  /** What one iteration is, plural: the unit of the offered rate. */
  readonly unit: string;
  /** The surface (a key of src/target/surfaces.ts) whose requests the iteration makes. */
  readonly surface: string;
  /** HTTP requests one iteration makes to that surface, when fixed; otherwise measured per run. */
  readonly requestsPerIteration?: number;
}

/** By scenario name. chat-turns: create, 4 turns, goodbye, close. */
export const SCENARIO_UNITS: Readonly<Record<string, ScenarioUnit>> = {
  'chat-turns': { unit: 'conversations', surface: 'chat', requestsPerIteration: 7 },
  'messaging-sockets': { unit: 'sessions', surface: 'messaging' },
  'outbound-polling': { unit: 'calls', surface: 'calls' },
  'conversations-paging': { unit: 'walks', surface: 'records' },
  'voice-browser': { unit: 'browsers', surface: 'voice' },
};

/** The unit of a scenario, `iterations` for one without a row. */
export const unitOf = (scenario: string): ScenarioUnit => SCENARIO_UNITS[scenario] ?? { unit: 'iterations', surface: '' };
