import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../clock.js';
import { SeededRandom } from '../ids.js';
import { AgentStore, diverged } from './store.js';

const fresh = () => {
  const store = new AgentStore(new AdjustableClock(), new SeededRandom(7));
  const agent = store.create({ accountId: 'A', workspaceId: 'W', name: 'n', description: undefined });
  return { store, agent, main: store.main(agent) };
};

describe('branch divergence', () => {
  it('is not diverged when only the branch changed', () => {
    const { store, agent, main } = fresh();
    const b = store.branch(agent, 'feature');
    store.setBehavior(b, 'be brief');
    expect(diverged(b, main)).toBe(false);
  });

  it('is not diverged when only main changed', () => {
    const { store, agent, main } = fresh();
    const b = store.branch(agent, 'feature');
    store.setBehavior(main, 'be kind');
    expect(diverged(b, main)).toBe(false);
  });

  it('is diverged when both the branch and main changed since the branch was made', () => {
    const { store, agent, main } = fresh();
    const b = store.branch(agent, 'feature');
    store.addTopic(b, 'hours', '9 to 5');
    store.setBehavior(main, 'be kind');
    expect(diverged(b, main)).toBe(true);
  });

  it('merges branch content into main and starts the branch afresh', () => {
    const { store, agent, main } = fresh();
    const b = store.branch(agent, 'feature');
    store.setBehavior(b, 'be brief');
    store.addTopic(b, 'hours', '9 to 5');
    store.merge(agent, b);
    expect(main.behavior).toBe('be brief');
    expect(main.topics.map((t) => t.name)).toEqual(['hours']);
    store.setBehavior(main, 'be kind');
    expect(diverged(b, main)).toBe(false);
    store.setBehavior(b, 'be terse');
    expect(diverged(b, main)).toBe(true);
  });
});

describe('deployments', () => {
  it('numbers versions per agent and names main revision as the artifact', () => {
    const { store, agent } = fresh();
    const first = store.deploy(agent, 'sandbox', 'key_x', {});
    const second = store.deploy(agent, 'sandbox', 'key_x', {});
    expect([first.version, second.version]).toEqual(['1', '2']);
    expect(first.artifactVersion).toBe('main@0');
    expect(store.deployment(agent, second.id)).toBe(second);
  });
});
