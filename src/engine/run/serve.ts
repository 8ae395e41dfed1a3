// Where the run's samples go besides the store while it runs: the --out outputs and the REST API (--address).
import { type Output, openOutput, parseOutArg, writesFile } from '../metrics/outputs.js';
import { type RestApi, startRestApi } from '../metrics/rest.js';
import type { RunContext } from './context.js';
import { EXIT, Fatal, orFatal } from './exit-codes.js';
import { written } from './io.js';
import type { LiveCounts } from './live.js';
import type { RunPlan } from './plan.js';

/** The outputs and the REST API a run opened, closed at its end. */
export interface Served {
  readonly outputs: Output[];
  rest: RestApi | undefined;
}

/**
 * Opens every --out output (a bad one is k6's 104) and starts the REST API when --address asks for it (106 if it
 * cannot listen); `served` holds what is open so far, for the run to close.
 *
 * @example
 * const served = { outputs: [], rest: undefined }; await serve(run, plan, live, served);
 */
export async function serve(run: RunContext, plan: RunPlan, live: LiveCounts, served: Served): Promise<void> {
  const { args } = run;
  orFatal(EXIT.invalidConfig, () => {
    for (const o of args.outs) {
      const spec = parseOutArg(o);
      const where = writesFile(spec) ? { ...spec, path: written(run.io, spec.path) } : spec;
      served.outputs.push(openOutput(where, plan.store, { env: run.io.env, log: (level, message) => run.log.write(level, message) }));
    }
  });
  // A network output's first call (InfluxDB creates its database) never stops the run: it logs what failed.
  await Promise.all(served.outputs.filter((o) => !writesFile(o.spec)).map((o) => o.ready()));
  if (!args.address) return;
  try {
    served.rest = await startRestApi({ address: args.address, store: plan.store, summaryTrendStats: plan.trendStats, status: () => live.status() });
  } catch (e) {
    throw new Fatal(EXIT.cannotStartRestApi, `the REST API could not start on ${args.address}: ${(e as Error).message}`);
  }
}
