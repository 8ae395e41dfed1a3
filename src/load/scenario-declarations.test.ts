import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { K6Summary } from '../core/summary.js';
import { ROOT } from '../root.js';
import { writeRunReport } from './finish-run.js';
import { checkDeclaration, declarationOf, loadDeclarations, SCENARIOS } from './scenario-declarations.js';
import { scenarioNames } from './scenarios.js';

/** A project folder holding only `files` (name under scenarios/ to text). */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'dialtone-declarations-'));
  mkdirSync(join(root, 'scenarios'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, 'scenarios', name), text);
  return root;
}

/** A declaration's module text with every required field, `drop` left out. */
const declarationText = (drop?: string) => {
  const fields: Record<string, string> = {
    defaults: "{ slos: {}, workloads: {}, metrics: {}, modules: ['http'] }",
    unit: "{ unit: 'alerts', surface: 'alerts' }",
    figures: '() => ({ figures: {}, headline: [] })',
    playsDialogues: 'false',
    playsLearned: 'false',
  };
  const body = Object.entries(fields)
    .filter(([k]) => k !== drop)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  return `export default { ${body} };\n`;
};

describe('the scenario declarations', () => {
  it('hold one declaration for every scenario in the folder, and none without a scenario', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(scenarioNames(ROOT));
    expect(scenarioNames(ROOT)).not.toContain('chat-turns.scenario');
  });

  it('give every scenario its unit, surface, figures and whether it plays dialogues and learned workloads', () => {
    for (const [name, d] of Object.entries(SCENARIOS)) {
      expect(d.unit.unit, name).toMatch(/^[a-z]+s$/);
      expect(d.unit.surface, name).not.toBe('');
      expect(typeof d.figures, name).toBe('function');
      expect(typeof d.playsDialogues, name).toBe('boolean');
      expect(typeof d.playsLearned, name).toBe('boolean');
    }
  });

  it('find a new scenario from its own files, with nothing else naming it', async () => {
    const root = project({ 'alerts.ts': 'export default function () {}\n', 'alerts.scenario.ts': declarationText() });
    const found = await loadDeclarations(root);
    expect(Object.keys(found)).toEqual(['alerts']);
    expect(found.alerts?.unit.unit).toBe('alerts');
  });

  it('refuse a scenario without a declaration, naming the file to write', async () => {
    const root = project({ 'alerts.ts': 'export default function () {}\n' });
    await expect(loadDeclarations(root)).rejects.toThrow("scenario 'alerts' has no declaration: write scenarios/alerts.scenario.ts beside scenarios/alerts.ts");
  });

  it('refuse a declaration that lacks a required field, naming it', async () => {
    for (const field of ['unit', 'figures', 'playsDialogues', 'playsLearned', 'defaults']) {
      const root = project({ 'alerts.ts': 'export default function () {}\n', 'alerts.scenario.ts': declarationText(field) });
      await expect(loadDeclarations(root), field).rejects.toThrow(`scenarios/alerts.scenario.ts: the declaration has no ${field}`);
    }
    expect(() => checkDeclaration('x', { ...declarationOf('chat-turns'), unit: { unit: 'conversations' } })).toThrow('has no unit.surface');
  });

  it('know no scenario that is not in the folder', () => {
    expect(() => declarationOf('no-such')).toThrow("unknown scenario 'no-such'");
  });

  it("give a run's report its headline figures, and a user's own script none", async () => {
    const summary: K6Summary = { metrics: { 'http_reqs{op:chat.respond}': { rate: 12.5 }, iterations: { rate: 2.5 } } };
    const report = async (scenario: string) => {
      const base = mkdtempSync(join(tmpdir(), 'dialtone-figures-'));
      const dir = join(base, 'load', scenario);
      mkdirSync(dir, { recursive: true });
      const engine = { kind: 'builtin', version: 'v0.1.0' } as const;
      const run = { workloadName: 'smoke', workload: 'smoke', target: 'reference', engine, started: 0, exitCode: 0, summary, secrets: [], record: false };
      return (await writeRunReport({ ...run, scenario, dir, reportDir: base })).result;
    };
    const chat = await report('chat-turns');
    expect(chat.figures.turns_per_s).toBe(12.5);
    expect(chat.headline).toContain('2.5/s conversations, HTTP error rate 0.00%');
    expect((await report('quickstart.js')).figures).toEqual({});
  });
});
