// The GitHub Actions workflows `dialtone init` writes into a platform team's project: the pre-release gate and the
// nightly load. They install dialtone as the package the project depends on (`npm ci`, then `node_modules/.bin/dialtone`,
// not npx: npm runs a bin through a shell that a stop signal ends with the signal, hiding dialtone's 105), never a
// clone, and never fetch or build k6: on `--engine k6` Grafana's own setup-k6-action installs it. Built as objects
// and printed with `yaml`, so quoting is always right; the comments are attached to the nodes they explain.
import { Document, isMap, isSeq, Scalar, visit } from 'yaml';
import type { EngineKind } from '../core/engine-version.js';
import { K6_VERSION } from '../load/k6.js';
import { ownModulesOf, whyOwn } from '../load/scenario-modules.js';
import { ROOT } from '../root.js';
import { gateEnvironment, nightlyEnvironment } from './environments.js';
import { credentialVariables, profilePath } from './profile-template.js';

/** What the workflows are written for. */
export interface WorkflowOptions {
  /** The project's environments, as `--environments` named them. */
  readonly environments: readonly string[];
  /** The engine of the nightly load. */
  readonly engine: EngineKind;
  /** The scenarios the nightly runs, one job each (the registry's names). */
  readonly scenarios: readonly string[];
}

/** One step, with the comment printed above it. */
interface Step {
  readonly comment?: string;
  readonly name?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly with?: Readonly<Record<string, string | number | boolean>>;
  readonly run?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** Where the two workflows go, relative to the project. */
export const GATE_WORKFLOW = '.github/workflows/dialtone-gate.yml';
export const NIGHTLY_WORKFLOW = '.github/workflows/dialtone-nightly.yml';

/** A GitHub Actions expression, `${{ … }}`, built here so no string in this file looks like a broken JS template. */
const expr = (e: string) => `\${{ ${e} }}`;
const SCENARIO = expr('matrix.scenario');
const NOT_CANCELLED = expr('!cancelled()');

/** Each credential variable from the secret of the same name: the workflow and the profile name the same list. */
const secretsEnv = (environment: string) => Object.fromEntries(credentialVariables(environment).map((v) => [v, expr(`secrets.${v}`)]));

/** A comment block: paragraphs wrapped at 118 columns, each line led by a space after yaml's `#`. */
function commentBlock(paragraphs: readonly string[], width = 116): string {
  const lines: string[] = [];
  for (const paragraph of paragraphs) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines.map((l) => ` ${l}`).join('\n');
}

/** dialtone as npm installed it: its own exit code reaches the step (through npx, a stop signal's 105 becomes 130). */
export const BIN = 'node_modules/.bin/dialtone';
const BIN_COMMENT =
  "dialtone's bin, not npx: npx runs it through a shell that a stop signal (a cancelled job) ends with the signal, so the step would " +
  "see 130 rather than dialtone's 105 for an interrupted run (docs/reports.md, exit codes).";

/** How the nightly streams its run to a team's Prometheus, the same on either engine (docs/engines.md, "k6 outputs"). */
export const PROMETHEUS_COMMENT =
  "To watch the run beside the platform's own metrics, stream it to your team's Prometheus (its remote-write receiver on): " +
  'add `--out experimental-prometheus-rw` to this run line, and to this env K6_PROMETHEUS_RW_SERVER_URL: ' +
  'https://prometheus.example.com/api/v1/write, K6_PROMETHEUS_RW_USERNAME and K6_PROMETHEUS_RW_PASSWORD from secrets of those ' +
  "names, and K6_PROMETHEUS_RW_TREND_STATS: 'p(95),p(99),min,max,count'. A store that cannot be reached never fails the night: " +
  'the run goes on and its log says how many samples were dropped.';

const checkout: Step = { uses: 'actions/checkout@v4' };
const setupNode: Step = { uses: 'actions/setup-node@v4', with: { 'node-version': 26, cache: 'npm' } };

/**
 * Prints a workflow: the header comment, a blank line between top-level sections and between steps, each step's
 * comment above it, and short lists (tags, the scenario matrix) in flow style as people write them.
 */
function render(header: readonly string[], workflow: Record<string, unknown>): string {
  const strip = (s: Step) => Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'comment'));
  const jobs = workflow.jobs as Record<string, { steps: Step[] }>;
  const plain = { ...workflow, jobs: Object.fromEntries(Object.entries(jobs).map(([id, j]) => [id, { ...j, steps: j.steps.map(strip) }])) };
  const doc = new Document(plain);
  doc.commentBefore = commentBlock(header);
  if (isMap(doc.contents)) {
    for (const [i, pair] of doc.contents.items.entries()) if (i > 0 && pair.key instanceof Scalar) pair.key.spaceBefore = true;
  }
  for (const [id, job] of Object.entries(jobs)) {
    const steps = doc.getIn(['jobs', id, 'steps']);
    if (!isSeq(steps)) continue;
    for (const [i, node] of steps.items.entries()) {
      if (!isMap(node)) continue;
      node.spaceBefore = i > 0;
      const comment = job.steps[i]?.comment;
      if (comment) node.commentBefore = commentBlock(comment.split('\n'));
    }
    const matrix = doc.getIn(['jobs', id, 'strategy', 'matrix', 'scenario']);
    if (isSeq(matrix)) matrix.flow = true;
  }
  const tags = doc.getIn(['on', 'push', 'tags']);
  if (isSeq(tags)) tags.flow = true;
  // Globs, cron lines and versions quoted, as GitHub's documentation writes them: they read as text, not YAML syntax.
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && /\*|^\d+(\.\d+)+$/.test(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  // `workflow_dispatch:` with nothing after it, as workflows write a trigger without settings.
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false, nullStr: '' });
}

/** The secrets of one environment, for the header, as one sentence. */
const secretsSentence = (environment: string) =>
  `Secrets (each credential variable the profile names, from the secret of the same name): ${credentialVariables(environment).join(', ')}. ` +
  'A surface you do not have: drop its hosts and credentials from the profile and its secrets from this file.';

/**
 * The pre-release gate: conformance against the pre-release environment's profile, its JUnit published as a check,
 * its report uploaded.
 *
 * @example
 * writeFileSync('.github/workflows/dialtone-gate.yml', gateWorkflow({ environments: ['staging', 'pre-release'], engine: 'builtin', scenarios }));
 */
export function gateWorkflow(workflow: WorkflowOptions): string {
  const env = gateEnvironment(workflow.environments);
  const profile = profilePath(env);
  const header = [
    `dialtone's pre-release gate, written by \`dialtone init\`: the conformance suite against ${env} (${profile}), by hand ` +
      '(workflow_dispatch) and on every tag v*. It fails when a documented rule fails (exit 1), or when the profile is wrong ' +
      'or the run checked nothing (exit 2). The JUnit is published as the check "dialtone conformance" and the report uploaded.',
    "dialtone is this project's own dependency (package.json), installed by npm ci at the version the lock file holds.",
    secretsSentence(env),
    `They may live in the repository or in its GitHub environment "${env}". Variables: none.`,
  ];
  return render(header, {
    name: 'dialtone gate',
    on: { workflow_dispatch: null, push: { tags: ['v*'] } },
    permissions: { contents: 'read', checks: 'write' },
    jobs: {
      conformance: {
        name: `conformance ${env}`,
        'runs-on': 'ubuntu-latest',
        environment: env,
        'timeout-minutes': 30,
        env: { PROFILE: profile },
        steps: [
          checkout,
          setupNode,
          {
            comment: 'Conformance needs no Chromium (only the voice-browser load scenario does).',
            name: 'Install (dialtone from package.json)',
            run: 'npm ci',
            env: { DIALTONE_SKIP_CHROMIUM: '1' },
          },
          {
            comment: BIN_COMMENT,
            name: 'Conformance (the gate)',
            run: `${BIN} conformance --target "$PROFILE" --report-dir reports`,
            env: secretsEnv(env),
          },
          {
            name: 'Publish the JUnit',
            if: expr("!cancelled() && hashFiles('reports/conformance/junit.xml') != ''"),
            uses: 'mikepenz/action-junit-report@v5',
            with: { report_paths: 'reports/conformance/junit.xml', check_name: 'dialtone conformance', include_passed: false },
          },
          {
            name: 'Upload the report',
            if: NOT_CANCELLED,
            uses: 'actions/upload-artifact@v4',
            with: { name: 'dialtone-conformance', path: 'reports/conformance/', 'retention-days': 90 },
          },
        ],
      },
    },
  });
}

/** The modules of dialtone's own a scenario imports; none for a name dialtone does not ship. */
function ownModules(scenario: string): string[] {
  try {
    return ownModulesOf(ROOT, scenario);
  } catch {
    return [];
  }
}

/**
 * The nightly load: one job per scenario at its nightly workload, judged by the profile's SLOs and, with the run
 * history kept in the Actions cache, against its own last nights (`--fail-on-regression`); reports uploaded.
 *
 * @example
 * writeFileSync('.github/workflows/dialtone-nightly.yml', nightlyWorkflow({ environments: ['staging'], engine: 'k6', scenarios: ['chat-turns'] }));
 */
export function nightlyWorkflow(workflow: WorkflowOptions): string {
  const env = nightlyEnvironment(workflow.environments);
  const profile = profilePath(env);
  const k6 = workflow.engine === 'k6';
  const header = [
    `dialtone's nightly load, written by \`dialtone init\`: each scenario at its nightly workload against ${env} (${profile}), ` +
      "judged by the profile's SLOs and against its own last 14 nights on the same engine (a verdict from the 8th night on). " +
      'A job fails when an SLO fails (exit 99), the load asked for was not delivered (exit 5) or a metric regressed (exit 6). ' +
      'The run history is kept in the Actions cache, one entry a night per scenario; the reports are uploaded.',
    k6
      ? "Engine: k6 (DIALTONE_ENGINE: k6), installed by Grafana's own setup-k6-action; dialtone never fetches, builds or ships k6."
      : "Engine: dialtone's built-in one (DIALTONE_ENGINE: builtin). For k6, delete this file and run `npx dialtone init --engine k6`.",
    "dialtone is this project's own dependency (package.json), installed by npm ci at the version the lock file holds.",
    secretsSentence(env),
    'Variables: none.',
  ];
  const engineSteps: Step[] = k6 ? [{ name: 'Install k6', uses: 'grafana/setup-k6-action@v1', with: { 'k6-version': K6_VERSION.replace(/^v/, '') } }] : [];
  // A scenario on a module of dialtone's own (voice-calls: WebRTC) runs on the built-in engine whatever the others use.
  const builtinOnly = k6 ? workflow.scenarios.filter((s) => ownModules(s).length > 0) : [];
  if (builtinOnly.length > 0)
    header.splice(
      2,
      0,
      `${builtinOnly.join(', ')} run on dialtone's built-in engine: ` +
        `${[...new Set(builtinOnly.flatMap(ownModules))].map((m) => `${m} (${whyOwn(m)})`).join(', ')}.`,
    );
  const engine = builtinOnly.length > 0 ? expr(`contains(fromJSON('${JSON.stringify(builtinOnly)}'), matrix.scenario) && 'builtin' || 'k6'`) : workflow.engine;
  const historyKey = `dialtone-history-${SCENARIO}`;
  return render(header, {
    name: 'dialtone nightly',
    on: { schedule: [{ cron: '17 2 * * *' }], workflow_dispatch: null },
    permissions: { contents: 'read' },
    concurrency: { group: 'dialtone-nightly', 'cancel-in-progress': false },
    jobs: {
      load: {
        name: `load ${SCENARIO}`,
        'runs-on': 'ubuntu-latest',
        'timeout-minutes': 45,
        strategy: { 'fail-fast': false, matrix: { scenario: [...workflow.scenarios] } },
        env: {
          PROFILE: profile,
          HISTORY: `history/${SCENARIO}.jsonl`,
          DIALTONE_ENGINE: engine,
          ...(k6 ? { K6_NO_USAGE_REPORT: 'true' } : {}),
        },
        steps: [
          checkout,
          setupNode,
          ...engineSteps,
          {
            comment: 'A cache entry never changes, so each night saves a new one and the next night restores the newest.',
            name: 'Restore the run history',
            uses: 'actions/cache/restore@v4',
            with: { path: 'history', key: `${historyKey}-${expr('github.run_id')}`, 'restore-keys': `${historyKey}-` },
          },
          { name: 'Install (dialtone from package.json)', run: 'npm ci' },
          {
            comment: `${BIN_COMMENT}\n${PROMETHEUS_COMMENT}`,
            name: 'Load run and regression verdict',
            run: `${BIN} load "${SCENARIO}" --target "$PROFILE" --workload nightly --report-dir reports --history "$HISTORY" --fail-on-regression`,
            env: secretsEnv(env),
          },
          {
            name: 'Save the run history',
            if: expr("!cancelled() && hashFiles(env.HISTORY) != ''"),
            uses: 'actions/cache/save@v4',
            with: { path: 'history', key: `${historyKey}-${expr('github.run_id')}` },
          },
          {
            name: 'Upload the reports',
            if: NOT_CANCELLED,
            uses: 'actions/upload-artifact@v4',
            with: { name: `dialtone-load-${SCENARIO}`, path: 'reports/', 'retention-days': 30 },
          },
        ],
      },
    },
  });
}
