// The import rules of ARCHITECTURE.md, enforced in `npm test` (`npm run layers`). One rule per layer: the layer's
// files may import only what its row of the table allows (npm packages and node: built-ins are always allowed, except
// where a row says otherwise). A change to a row here is a change to ARCHITECTURE.md, and the other way round.

// src/core (k6's metric types, threshold grammar, percentile, durations, summary shape) is the bottom layer: every
// layer may import it, and it imports nothing of the others.
const CORE = '^src/core/';

/** Imports of a layer: its own folder, src/core, plus the listed `src/` folders (regular expressions on the path). */
const only = (name, from, allowed, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: '^(src|conformance|scenarios)/', pathNot: [from, CORE, ...allowed] },
});

// src/errors.ts (usage and environment errors with exit codes), src/version.ts (dialtone's version) and src/root.ts (the
// project root, from src/ or dist/src/) serve every layer.
const SHARED = '^src/(errors|version|root)\\.ts$';

// The engine's k6 module descriptions (src/engine/modules/descriptions.ts and each NAME/description.ts, with the metrics
// files they read): data that dialtone's load side reads too, so they import only src/core and each other, and their
// module's code only lazily (a dynamic import, run by the engine alone).
const MODULE_DESCRIPTIONS = '^src/engine/modules/(descriptions|module-description|[^/]+/(description|metrics))\\.ts$';

module.exports = {
  forbidden: [
    only('core', CORE, [SHARED], "src/core (k6's metrics, thresholds, percentile, durations, summary shape) imports nothing of the other layers"),
    only('spec-stands-alone', '^src/contract/', [], 'src/contract is the single source of truth: it imports nothing of the project but src/core'),
    only('profile', '^src/profile/', ['^src/contract/', SHARED], 'src/profile may import spec'),
    only('voice-client', '^src/voice-client/', ['^src/contract/', '^src/root\\.ts$'], 'the voice client page may import spec and the root'),
    only(
      'target',
      '^src/reference-target/',
      ['^src/contract/', '^src/profile/', '^src/voice-client/', SHARED],
      'the reference target may import spec, profile, voice-client',
    ),
    only('clients', '^src/clients/', ['^src/contract/', '^src/profile/', SHARED], 'the typed clients may import spec and profile'),
    only(
      'suite',
      '^src/suite/',
      ['^src/contract/', '^src/profile/', '^src/clients/', '^src/report/', '^src/reference-target/', SHARED],
      'the case API and runner may import spec, profile, clients, report, target (self-test)',
    ),
    only('report', '^src/report/', ['^src/contract/', '^src/profile/', SHARED], 'the report writers may import spec and profile'),
    only(
      'load',
      '^src/load/(?!vu/)',
      [
        '^src/contract/',
        '^src/profile/',
        '^src/report/',
        '^src/nightly/',
        '^src/voice-client/',
        '^scenarios/[^/]+\\.(defaults|scenario)\\.ts$',
        '^src/engine/modules/(descriptions|module-description)\\.ts$',
        SHARED,
      ],
      "the Node side of load may import spec, profile, report, nightly, voice-client, the scenarios' defaults and declarations (never a " +
        "scenario's script) and the engine's k6 module descriptions",
    ),
    only(
      'engine',
      '^src/engine/',
      ['^src/(version|root)\\.ts$'],
      'the built-in engine (a program of its own, spawned like k6) may import src/core, the version and the root only',
    ),
    only('load-vu', '^src/load/vu/', ['^src/contract/', '^src/load/config\\.ts$'], 'code that runs inside k6 may import spec and the load config types only'),
    only(
      'nightly',
      '^src/nightly/',
      ['^src/contract/', '^src/profile/', '^src/report/', SHARED],
      "the nightly verdict may import spec, profile, report; never load, whose run's finishing step hands it the run's record",
    ),
    only(
      'capacity',
      '^src/capacity/',
      ['^src/contract/', '^src/profile/', '^src/report/', '^src/load/', '^src/nightly/', '^src/suite/', SHARED],
      'the capacity search may import spec, profile, report, load, nightly, suite',
    ),
    only(
      'fuzz',
      '^src/fuzz/',
      ['^src/contract/', '^src/profile/', '^src/clients/', '^src/reference-target/', SHARED],
      'the fuzz may import spec, profile, clients, target',
    ),
    only(
      'traffic',
      '^src/traffic/',
      [
        '^src/contract/',
        '^src/profile/',
        '^src/clients/',
        '^src/load/dialogues\\.ts$',
        '^src/load/config\\.ts$',
        '^src/load/vu/quantiles\\.ts$',
        '^src/nightly/noise\\.ts$',
        SHARED,
      ],
      'the traffic model may import spec, profile, clients and the dialogues file shape',
    ),
    only('soak', '^src/soak/', [], 'the soak windows need nothing of the project'),
    only('tools', '^src/tools/', [SHARED], 'the Go tool installer may import the errors only'),
    only('licenses', '^src/licenses/', [], 'the licence walker reads package.json files with node built-ins only'),
    only('init', '^src/init/', ['^src/contract/', '^src/profile/', '^src/load/', SHARED], 'the project setup may import spec, profile, load'),
    only('conformance', '^conformance/', ['^src/'], 'cases import src, never scenarios'),
    only('scenarios', '^scenarios/', ['^src/contract/', '^src/load/vu/', '^src/load/config\\.ts$'], 'k6 scenarios import spec, load/vu and the load config'),
    {
      name: 'module-descriptions-light',
      comment: "a k6 module's description loads none of its code but lazily: dialtone's load side reads it without Playwright, werift or grpc-js",
      severity: 'error',
      from: { path: MODULE_DESCRIPTIONS },
      to: { pathNot: [CORE, MODULE_DESCRIPTIONS], dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'scenarios-no-node',
      comment: 'k6 runs the scenarios: no Node built-ins there',
      severity: 'error',
      from: { path: '^(scenarios|src/load/vu)/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-cycles-between-folders',
      comment: 'no import cycles (reference-target/agents and reference-target/alerts share reference-target/agent-interface instead of importing each other)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
