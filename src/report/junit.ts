import type { Results } from './results.js';

const x = (s: unknown) => String(s).replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);

/** JUnit XML: one testsuite per surface, one testcase per case; observed cases carry a property. */
export function junitXml(r: Results): string {
  const bySurface = new Map<string, Results['cases']>();
  for (const c of r.cases) {
    const s = c.rule.split('.')[0] ?? 'other';
    bySurface.set(s, [...(bySurface.get(s) ?? []), c]);
  }
  // Which dialtone judged: JUnit has no place for it on <testsuites>, so each suite carries it as a property.
  const props = r.tool_version ? `    <properties><property name="dialtone.version" value="${x(r.tool_version)}"/></properties>\n` : '';
  const suites = [...bySurface].map(([s, cases]) => {
    const failures = cases.filter((c) => c.outcome === 'fail').length;
    const skipped = cases.filter((c) => c.outcome === 'skip').length;
    const time = cases.reduce((a, c) => a + c.duration_ms, 0) / 1000;
    const body = cases
      .map((c) => {
        const inner =
          c.outcome === 'fail'
            ? `<failure message="${x(c.detail)}">${x([c.detail, ...(c.reproduce ?? [])].join('\n'))}</failure>`
            : c.outcome === 'skip'
              ? `<skipped message="${x(c.detail)}"/>`
              : c.outcome === 'observed'
                ? `<properties><property name="outcome" value="observed"/><property name="observed" value="${x(c.detail)}"/></properties>`
                : '';
        return `    <testcase classname="dialtone.${x(s)}" name="${x(c.title)}" time="${(c.duration_ms / 1000).toFixed(3)}">${inner}</testcase>`;
      })
      .join('\n');
    return (
      `  <testsuite name="${x(s)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}" ` +
      `time="${time.toFixed(3)}">\n${props}${body}\n  </testsuite>`
    );
  });
  // An interrupted gate is never green, in CI's view too: one failed case says what did not run.
  const cut = r.interrupted
    ? [
        `  <testsuite name="interrupted" tests="1" failures="1" skipped="0" time="0">\n${props}    <testcase classname="dialtone.run" name="the gate ran to its end" time="0"><failure message="${x(`interrupted by ${r.interrupted.signal} at ${r.interrupted.at}`)}">${x(`rules with no finished case: ${r.interrupted.rules_not_run.join(', ')}`)}</failure></testcase>\n  </testsuite>`,
      ]
    : [];
  suites.push(...cut);
  const t = r.totals;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="dialtone conformance" tests="${r.cases.length + cut.length}" ` +
    `failures="${t.fail + cut.length}" skipped="${t.skip}" time="${(r.duration_ms / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`
  );
}
