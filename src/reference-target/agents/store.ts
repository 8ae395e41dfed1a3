import { DEFAULT_BRANCH, type Deployment, type DeploymentEnvironment } from '../../contract/agents/shapes.js';
import type { Clock } from '../clock.js';
import type { SeededRandom } from '../ids.js';
import type { JsonSchema } from './json-schema.js';

/** A knowledge-base topic, scoped to a branch. */
export interface Topic {
  readonly topicId: string;
  readonly name: string;
  readonly content: string;
  readonly createdAt: string;
}

/**
 * A branch: its content, plus the counters that tell divergence. `revision` counts its own edits;
 * `baseRevision` is main's revision when the branch was made (or last merged), `syncedRevision`
 * the branch's own revision at that moment.
 */
export interface Branch {
  readonly branchId: string;
  readonly name: string;
  readonly createdAt: string;
  behavior: string;
  topics: Topic[];
  revision: number;
  baseRevision: number;
  syncedRevision: number;
}

/** A real-time config page: its JSON Schema, the variables in effect, and (only with a defect) ones waiting for a publish. */
export interface ConfigPage {
  schema: JsonSchema;
  variables: Record<string, unknown>;
  pending: Record<string, unknown> | undefined;
}

/** A deployment record plus its creation order, so newest-first never depends on equal timestamps. */
export interface StoredDeployment {
  readonly record: Deployment;
  readonly seq: number;
}

/** An agent of one workspace, with everything scoped to it. */
export interface Agent {
  readonly agentId: string;
  readonly accountId: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly description: string | undefined;
  readonly createdAt: string;
  readonly branches: Map<string, Branch>;
  readonly deployments: StoredDeployment[];
  readonly configs: Map<string, ConfigPage>;
  /** Set through the control surface: every request that touches this agent answers 500. */
  internalError: boolean;
}

/** Id formats; a path id that does not fit its format is malformed (422), one that fits but is unknown is 404. */
export const ID_FORMATS = {
  agentId: /^agt_[0-9a-f]{16}$/,
  branchId: /^(main|br_[0-9a-f]{12})$/,
  deploymentId: /^dep_[0-9a-f]{16}$/,
  config: /^[a-z0-9][a-z0-9_-]{0,63}$/,
} as const;

/**
 * Diverged: both the branch and main changed since the branch was made (or last merged).
 *
 * @example
 * diverged({ revision: 1, syncedRevision: 0, baseRevision: 0 }, { revision: 1 }); // true
 */
export function diverged(branch: Pick<Branch, 'revision' | 'syncedRevision' | 'baseRevision'>, main: Pick<Branch, 'revision'>): boolean {
  return branch.revision > branch.syncedRevision && main.revision > branch.baseRevision;
}

const copyTopics = (topics: readonly Topic[]) => topics.map((t) => ({ ...t }));

/** Agents of every workspace, with their branches, deployments and real-time config pages. */
export class AgentStore {
  readonly #agents = new Map<string, Agent>();
  #seq = 0;

  constructor(
    private readonly clock: Clock,
    private readonly rng: SeededRandom,
  ) {}

  #iso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  create(init: Pick<Agent, 'accountId' | 'workspaceId' | 'name' | 'description'>): Agent {
    const createdAt = this.#iso();
    const main: Branch = {
      branchId: DEFAULT_BRANCH,
      name: DEFAULT_BRANCH,
      createdAt,
      behavior: '',
      topics: [],
      revision: 0,
      baseRevision: 0,
      syncedRevision: 0,
    };
    const agent: Agent = {
      ...init,
      agentId: `agt_${this.rng.hex(16)}`,
      createdAt,
      branches: new Map([[DEFAULT_BRANCH, main]]),
      deployments: [],
      configs: new Map(),
      internalError: false,
    };
    this.#agents.set(agent.agentId, agent);
    return agent;
  }

  get(agentId: string): Agent | undefined {
    return this.#agents.get(agentId);
  }

  list(workspaceId: string): Agent[] {
    return [...this.#agents.values()].filter((a) => a.workspaceId === workspaceId);
  }

  main(agent: Agent): Branch {
    return agent.branches.get(DEFAULT_BRANCH) as Branch;
  }

  branch(agent: Agent, name: string): Branch {
    const main = this.main(agent);
    const b: Branch = {
      branchId: `br_${this.rng.hex(12)}`,
      name,
      createdAt: this.#iso(),
      behavior: main.behavior,
      topics: copyTopics(main.topics),
      revision: 0,
      baseRevision: main.revision,
      syncedRevision: 0,
    };
    agent.branches.set(b.branchId, b);
    return b;
  }

  setBehavior(branch: Branch, behavior: string): void {
    branch.behavior = behavior;
    branch.revision++;
  }

  addTopic(branch: Branch, name: string, content: string): Topic {
    const topic: Topic = { topicId: `kbt_${this.rng.hex(12)}`, name, content, createdAt: this.#iso() };
    branch.topics.push(topic);
    branch.revision++;
    return topic;
  }

  /** Merges a branch into main (the caller has checked divergence); afterwards both hold the same content. */
  merge(agent: Agent, branch: Branch): void {
    const main = this.main(agent);
    if (branch.revision > branch.syncedRevision) {
      main.behavior = branch.behavior;
      main.topics = copyTopics(branch.topics);
      main.revision++;
    } else {
      branch.behavior = main.behavior;
      branch.topics = copyTopics(main.topics);
    }
    branch.baseRevision = main.revision;
    branch.syncedRevision = branch.revision;
  }

  /** Records a deployment of main's current content in an environment. */
  deploy(agent: Agent, environment: DeploymentEnvironment, createdBy: string, metadata: Record<string, unknown>, artifactVersion?: string): Deployment {
    const main = this.main(agent);
    const record: Deployment = {
      id: `dep_${this.rng.hex(16)}`,
      accountId: agent.accountId,
      agentId: agent.agentId,
      environment,
      artifactVersion: artifactVersion ?? `main@${main.revision}`,
      version: String(agent.deployments.length + 1),
      createdBy,
      createdAt: this.#iso(),
      metadata: { branch: DEFAULT_BRANCH, ...metadata },
    };
    agent.deployments.push({ record, seq: ++this.#seq });
    return record;
  }

  deployment(agent: Agent, deploymentId: string): Deployment | undefined {
    return agent.deployments.find((d) => d.record.id === deploymentId)?.record;
  }
}
