import type { Verdict } from '../nightly/verdict.js';
import { verdictLines } from '../nightly/verdict.js';
import type { LoadResult } from './page.js';

const x = (s: unknown) => String(s).replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);

/**
 * JUnit XML for one load run: a testsuite with one testcase per k6 threshold (the SLOs), failed
 * when k6 judged it failed; and, once there is a baseline, a "regression" testsuite with one case that
 * fails when a metric regressed, listing each with its band.
 *
 * @example
 * writeFileSync('junit.xml', loadJunit(result, verdict));
 */
export function loadJunit(r: LoadResult, verdict?: Verdict): string {
  const cls = `dialtone.load.${x(r.scenario)}`;
  const cut = r.interrupted
    ? [
        `    <testcase classname="${cls}" name="the run ended on its own" time="0"><failure message="${x(`interrupted by ${r.interrupted.signal} at ${r.interrupted.at}`)}"/></testcase>`,
      ]
    : [];
  const thresholdCases = r.thresholds.map((t) => {
    const name = `${x(t.metric)} ${x(t.expression)}`;
    const inner = t.passed ? '' : `<failure message="${x(`${t.metric} ${t.expression} failed (value ${t.value ?? 'n/a'})`)}"/>`;
    return `    <testcase classname="${cls}" name="${name}" time="0">${inner}</testcase>`;
  });
  const cases = [...cut, ...thresholdCases];
  const failures = r.thresholds.filter((t) => !t.passed).length + cut.length;
  const time = (r.duration_ms / 1000).toFixed(3);
  const props = r.tool_version ? `    <properties><property name="dialtone.version" value="${x(r.tool_version)}"/></properties>\n` : '';
  const suites = [
    `  <testsuite name="${x(r.scenario)} thresholds" tests="${cases.length}" failures="${failures}" skipped="0" ` +
      `time="${time}">\n${props}${cases.join('\n')}\n  </testsuite>`,
  ];
  if (verdict && verdict.status !== 'no baseline') {
    const regressed = verdict.status === 'regressed';
    const inner = regressed ? `<failure message="${x(verdictLines(verdict)[0])}">${x(verdictLines(verdict).join('\n'))}</failure>` : '';
    suites.push(
      `  <testsuite name="${x(r.scenario)} regression" tests="1" failures="${regressed ? 1 : 0}" skipped="0" time="0">\n${props}    <testcase ` +
        `classname="${cls}" name="no metric regressed against the last ${verdict.baselineRuns} runs" time="0">${inner}</testcase>\n  </testsuite>`,
    );
  }
  const total = cases.length + suites.length - 1;
  const totalFailures = failures + (verdict?.status === 'regressed' ? 1 : 0);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="dialtone load ${x(r.scenario)}" tests="${total}" failures="${totalFailures}" ` +
    `skipped="0" time="${time}">\n${suites.join('\n')}\n</testsuites>\n`
  );
}
