// Stoplight Prism's HTTP servers, as many as tests/prism.test.ts asks for, in this one process: each `prism proxy` or
// `prism mock` of the CLI is a process of its own that loads Prism's modules anew, seconds of CPU before it listens,
// for each of a dozen servers. Each server is built as the CLI's createSingleProcessPrism builds it
// (@stoplight/prism-cli 5.14, dist/util/createServer.js: the same operations, config and logger), with a logger of its
// own, so its log stays its own.
//
// Commands on stdin, one JSON object a line: {"id", "start": {"mode": "proxy"|"mock", "document", "upstream"?}} answers
// {"id", "url"} or {"id", "error"}; {"id", "stop": N} answers {"id", "stopped": N}. Each log record of server N goes to
// stdout as {"server": N, "record": {name, level, msg, input?: {method, url: {path}}}}.
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

const require = createRequire(`${new URL('../node_modules/@stoplight/prism-cli/package.json', import.meta.url).pathname}`);
const { createLogger } = require('@stoplight/prism-core');
const { createServer } = require('@stoplight/prism-http-server');
const { getHttpOperationsFromSpec } = require('@stoplight/prism-http');
const { configureExtensionsUserProvided } = require('./dist/extensions');
const pino = require('pino');

/** The CLI's logger options (createServer.js, cliSpecificLoggerOptions), at its default verbosity. */
const loggerOptions = () => ({
  customLevels: { start: pino.levels.values.info + 1 },
  level: 'info',
  formatters: { level: (level) => ({ level }) },
});

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

/**
 * What a record's line in the CLI's log shows (its name, level, message, and a request's method and path), not the
 * request's headers and body that pino wrote with it.
 */
const brief = ({ name, level, msg, input }) => ({
  name,
  level,
  msg,
  ...(input ? { input: { method: input.method, url: { path: input.url?.path } } } : {}),
});

const servers = new Map();
let next = 1;

/** A server as the CLI's proxy or mock command makes it, with its defaults (--errors false, cors, validate-request). */
async function start({ mode, document, upstream }) {
  const n = next++;
  let rest = ''; // pino writes a record a line; a line split across writes waits for its end
  const records = new Writable({
    write(chunk, _encoding, done) {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line) send({ server: n, record: brief(JSON.parse(line)) });
      done();
    },
  });
  const logger = createLogger('CLI', loggerOptions(), records);
  const operations = await getHttpOperationsFromSpec(document);
  await configureExtensionsUserProvided(document, { fillProperties: undefined });
  if (operations.length === 0) throw new Error('No operations found in the current file.');
  const shared = {
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    errors: false,
    upstreamProxy: undefined,
    // The proxy command defines none of these options, the mock command defaults them.
    mock: mode === 'mock' ? { dynamic: false, ignoreExamples: false, seed: null } : { dynamic: undefined, ignoreExamples: undefined, seed: undefined },
  };
  const config = mode === 'proxy' ? { ...shared, isProxy: true, upstream: new URL(upstream) } : { ...shared, isProxy: false };
  const server = createServer(operations, { cors: true, config, components: { logger: logger.child({ name: 'HTTP SERVER' }) } });
  const url = await server.listen(0, '127.0.0.1');
  servers.set(n, server);
  logger.start(`Prism is listening on ${url}`);
  return { server: n, url };
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const { id, start: what, stop } = JSON.parse(line);
  try {
    if (what) send({ id, ...(await start(what)) });
    else {
      // A connection kept alive by a client holds close() open: two seconds, then it is left to the process's end.
      await Promise.race([servers.get(stop)?.close(), new Promise((done) => setTimeout(done, 2_000))]);
      servers.delete(stop);
      send({ id, stopped: stop });
    }
  } catch (e) {
    send({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
// The test ends this process by closing stdin.
process.stdin.on('end', () => process.exit(0));
