// k6 run's option flags against the sentences of k6's documentation they follow (/using-k6/k6-options/reference/,
// /using-k6/k6-options/how-to/, /using-k6/environment-variables/).
import { describe, expect, it } from 'vitest';
import { parseRunArgs } from './cli.js';
import { flagsFromEnv, type K6Flags, NO_FLAGS, newFlags, scriptEnv, takeFlag, withFlags } from './cli-options.js';

/** The flags of an argument list, every argument a flag. */
function parse(argv: readonly string[]): K6Flags {
  const f = newFlags();
  for (let i = 0; i < argv.length; ) {
    const took = takeFlag(f, argv, i);
    if (took === 0) throw new Error(`not a flag: ${argv[i]}`);
    i += took;
  }
  return f;
}

describe("k6 run's option flags", () => {
  // environment-variables docs: "you can use one or more -e / --env CLI flags"; "The -e flag does not configure options".
  it('puts -e values in __ENV over the system variables, and configures no option with them', () => {
    const f = parse(['-e', 'HOST=a.test', '--env', 'K6_ITERATIONS=120', '--env=EMPTY=']);
    expect(scriptEnv(f, { HOST: 'system', PATH: '/bin' })).toEqual({ HOST: 'a.test', PATH: '/bin', K6_ITERATIONS: '120', EMPTY: '' });
    expect(withFlags({ vus: 2 }, f).options).toEqual({ vus: 2 });
    expect(() => parse(['-e', 'NOVALUE'])).toThrow(/NAME=VALUE/);
  });

  // environment-variables docs: "By default, passing system environment variables doesn't work for k6 archive, k6
  // cloud, and k6 inspect … To override this mode, specify --include-system-env-vars." k6 run passes them.
  it('passes the system variables to k6 run unless --include-system-env-vars=false', () => {
    expect(scriptEnv(parse([]), { PATH: '/bin' })).toEqual({ PATH: '/bin' });
    expect(scriptEnv(parse(['--include-system-env-vars']), { PATH: '/bin' })).toEqual({ PATH: '/bin' });
    expect(scriptEnv(parse(['--include-system-env-vars=false', '-e', 'A=1']), { PATH: '/bin' })).toEqual({ A: '1' });
  });

  // how-to docs: "command-line flags have the highest order of precedence".
  it('lets --vus, --duration and --iterations override the script options of the same name', () => {
    expect(withFlags({ vus: 2, duration: '1m' }, parse(['-u', '5', '-d', '10s'])).options).toEqual({ vus: 5, duration: '10s' });
    expect(withFlags({ vus: 2, iterations: 3 }, parse(['--iterations', '7'])).options).toEqual({ vus: 2, iterations: 7 });
    // A duration from the command line replaces the script's iterations shortcut rather than capping it.
    expect(withFlags({ iterations: 3 }, parse(['--duration=5s'])).options).toEqual({ duration: '5s' });
  });

  // options reference, stages: "-s 5s:10,5m:20"; stages with vus: vus is where the ramp starts.
  it('reads --stage as DURATION:TARGET, repeated or comma-separated, in place of the script stages', () => {
    const f = parse(['-s', '5s:10,5m:20', '--stage', '10s:0']);
    expect(withFlags({ stages: [{ duration: '1s', target: 1 }] }, f).options.stages).toEqual([
      { duration: '5s', target: 10 },
      { duration: '5m', target: 20 },
      { duration: '10s', target: 0 },
    ]);
    expect(() => parse(['-s', '10s'])).toThrow(/DURATION:TARGET/);
    expect(() => parse(['-s', 'soon:10'])).toThrow(/duration/);
  });

  // facts sheet §14: "CLI shortcuts replace script scenarios with a warning."
  it("replaces the script's scenarios when a flag gives a duration, iterations or stages, and says so", () => {
    const r = withFlags({ scenarios: { a: { executor: 'constant-vus', vus: 1, duration: '1m' } } }, parse(['-u', '3', '-i', '9']));
    expect(r.options).toEqual({ vus: 3, iterations: 9 });
    expect(r.warning).toMatch(/replace the script's scenarios/);
    const vusOnly = withFlags({ scenarios: { a: { executor: 'constant-vus', vus: 1, duration: '1m' } } }, parse(['-u', '3']));
    expect(vusOnly.options.scenarios).toBeDefined();
    expect(vusOnly.warning).toMatch(/--vus sets no scenario's VUs/);
  });

  // k6 v2.1 (k6#5794): "--vus N alone = shared-iterations, N VUs × N iterations".
  it('gives --vus N alone N iterations shared among the N VUs', () => {
    expect(withFlags({}, parse(['--vus', '4'])).options).toEqual({ vus: 4, iterations: 4 });
  });

  // options reference, summary-trend-stats: "--summary-trend-stats="avg,min,med,max,p(90),p(99.9),p(99.99),count"".
  it('takes --summary-trend-stats as a comma list of trend stats and refuses anything else', () => {
    expect(withFlags({ summaryTrendStats: ['avg'] }, parse(['--summary-trend-stats', 'avg,p(99.9),count'])).options.summaryTrendStats).toEqual([
      'avg',
      'p(99.9)',
      'count',
    ]);
    expect(() => parse(['--summary-trend-stats', 'avg,p(101)'])).toThrow(/summaryTrendStats/);
  });

  // tags-and-groups docs, test-wide tags: "k6 run --tag NAME=VALUE"; by default the highest source replaces lower ones.
  it('sets test-wide tags from --tag NAME=VALUE, replacing the script tags', () => {
    expect(withFlags({ tags: { team: 'a', env: 'x' } }, parse(['--tag', 'env=ci', '--tag', 'run=7'])).options.tags).toEqual({ env: 'ci', run: '7' });
    expect(withFlags({ tags: { team: 'a' } }, NO_FLAGS).options.tags).toEqual({ team: 'a' });
  });

  // options reference (v1), no-summary: "Disables end-of-test summary generation, including calls to handleSummary()
  // and --summary-export"; v2 names it --summary-mode=disabled.
  it('reads --no-summary as --summary-mode=disabled', () => {
    expect(parse(['--no-summary']).summaryMode).toBe('disabled');
    expect(parse(['--summary-mode', 'full']).summaryMode).toBe('full');
    expect(() => parse(['--summary-mode', 'legacy'])).toThrow(/compact, full or disabled/);
  });

  // environment-variables docs: "-e K6_ITERATIONS=120 does not configure the script iterations. Compare this behavior
  // with K6_ITERATIONS=120 k6 run script.js, which does set iterations."
  it('sets options from the K6_* variables, but not from -e values of the same names', () => {
    expect(flagsFromEnv({ K6_ITERATIONS: '120' }).iterations).toBe(120);
    expect(parseRunArgs(['-e', 'K6_ITERATIONS=120', 's.js'], {}).iterations).toBeUndefined();
    const f = flagsFromEnv({ K6_VUS: '3', K6_DURATION: '10s', K6_STAGES: '5s:10,5s:0', K6_SUMMARY_TREND_STATS: 'avg,p(99)', K6_NO_SUMMARY: 'true' });
    expect([f.vus, f.duration, f.stages, f.summaryTrendStats, f.summaryMode]).toEqual([
      3,
      '10s',
      [
        { duration: '5s', target: 10 },
        { duration: '5s', target: 0 },
      ],
      ['avg', 'p(99)'],
      'disabled',
    ]);
    expect(flagsFromEnv({ K6_INCLUDE_SYSTEM_ENV_VARS: 'false' }).includeSystemEnvVars).toBe(false);
    expect(flagsFromEnv({ K6_CONSOLE_OUTPUT: 'console.log' }).consoleOutput).toBe('console.log');
    expect(() => flagsFromEnv({ K6_VUS: 'many' })).toThrow(/^K6_VUS: --vus must be a whole number/);
  });

  // options how-to, order of precedence: "After, k6 uses the environment variable (if set). Finally, k6 takes the value
  // from the CLI flag (if set)."
  it('lets the command line flags go over the K6_* variables', () => {
    const env = { K6_VUS: '3', K6_STAGES: '5s:10', K6_SUMMARY_MODE: 'disabled' };
    const a = parseRunArgs(['--vus', '5', '-s', '1s:2', '--summary-mode', 'compact', 's.js'], env);
    expect([a.vus, a.stages, a.summaryMode]).toEqual([5, [{ duration: '1s', target: 2 }], 'compact']);
    const b = parseRunArgs(['s.js'], env);
    expect([b.vus, b.stages, b.summaryMode]).toEqual([3, [{ duration: '5s', target: 10 }], 'disabled']);
    expect('stagesFromEnv' in b).toBe(false);
  });
});
