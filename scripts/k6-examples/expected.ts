// What k6 does with each of its examples where that is not "exit 0, every check passed", in our words, and the
// examples that cannot run here at all. Keyed by the script's path under examples/.

export interface Expectation {
  /** k6's exit code for the script (0 when unset), or 'any' where a threshold judges random values on purpose. */
  readonly exit?: number | 'any';
  /** How many checks fail on k6 too (0 when unset), or 'any' where the script's checks are random on purpose. */
  readonly checkFails?: number | 'any';
  /** Why it is not run here: an extension, or a service no stand-in can replace. */
  readonly skip?: string;
  /** Where the engine's exit differs from k6's on purpose (docs/engines.md), the engine's exit. */
  readonly onPurpose?: { readonly exit: number; readonly why: string };
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly note?: string;
}

const PUBLIC = (host: string) => `calls ${host}, a public service no local stand-in replaces`;
const EVERY_ITERATION_FAILED = {
  exit: 107,
  why: 'its one iteration throws on purpose: k6 exits 0, the built-in engine 107 ("a run that tested nothing is never green")',
};

export const EXPECTED: Readonly<Record<string, Expectation>> = {
  'browser/colorscheme.js': { skip: PUBLIC('googlechromelabs.github.io') },
  'browser/getattribute.js': { skip: PUBLIC('googlechromelabs.github.io') },
  'graphql.js': { skip: PUBLIC("api.github.com's GraphQL API (with a token)") },
  'ocsp.js': { skip: `${PUBLIC('stackoverflow.com')}: it checks the OCSP status a public CA stapled` },
  'tlsconfig.js': { skip: PUBLIC('sha256.badssl.com') },
  'pantheon.js': { skip: PUBLIC('a Drupal site on pantheonsite.io') },
  'pantheontest.js': { skip: PUBLIC('a Drupal site on pantheonsite.io') },
  'localhost.js': { skip: "needs a web server of the user's own on localhost:8080 (/, a stylesheet, images)" },
  'malicious.js': { skip: "loops forever on purpose: k6 ends it at the scenario's maxDuration, 10 minutes" },
  'experimental/redis.js': { skip: 'needs a Redis server' },
  'secrets/url-source.test.js': { skip: "needs k6's mock secrets server (mock_server.go)" },
  'browser/remote.js': { skip: 'needs a Chromium started by hand with --remote-debugging-port, its address in CDP_WS_URL' },
  // The script's checks are random on purpose: Math.random() < 1/3 and < 0.5.
  'es6sample.js': { exit: 'any', checkFails: 'any', note: 'checks and a threshold on Math.random() on purpose; "always fails" fails' },
  'enhanced/abort.ts': { exit: 108, note: 'exec.test.abort() on purpose: exit 108' },
  'source_map/issue_1804/main.js': { onPurpose: EVERY_ITERATION_FAILED },
  'source_map/typescript_template/test1.ts': { onPurpose: EVERY_ITERATION_FAILED },
  // A threshold on purpose: its rate stays under 100 % … when the target is slow; here it passes.
  'thresholds.js': {},
};

/** Scripts whose own options run for minutes: k6's -d/-u flags shorten them (they replace the stages). */
export const SHORTENED: Readonly<Record<string, readonly string[]>> = {
  'thresholds_readme_example.js': ['-u', '5', '-d', '15s'],
  'docker-compose/opentelemetry/script.js': ['-d', '10s'],
};
