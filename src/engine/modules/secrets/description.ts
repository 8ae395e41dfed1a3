// k6/secrets (/javascript-api/k6-secrets/): secrets from the run's secret sources.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/secrets, as the engine provides it. */
export const description = describeModule({
  names: ['k6/secrets'],
  code: async () => (await import('./secrets.js')).secretsModule as ModuleCode,
});
