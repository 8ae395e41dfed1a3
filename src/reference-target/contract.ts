import { referenceTargetOpenApi } from '../contract/exporter.js';
import { listRoutes } from './route-table.js';

/** The file name of the reference target's contract, beside the published `openapi.json`. */
export const REFERENCE_TARGET_OPENAPI = 'openapi-reference-target.json';

/**
 * The reference target's OpenAPI document, as `dialtone contract` writes it: the published contract and every route the
 * reference target's route table marks not shown (src/reference-target/not-shown.ts), so no second list of them exists.
 *
 * @example
 * const text = await referenceTargetContract(); JSON.parse(text).paths['/v1/webhook-endpoints'].get['x-dialtone-not-shown']
 */
export async function referenceTargetContract(): Promise<string> {
  const routes = (await listRoutes()).flatMap((r) => (r.notShown ? [{ host: r.host, method: r.method, path: r.url, rule: r.notShown }] : []));
  return `${JSON.stringify(referenceTargetOpenApi(routes), null, 2)}\n`;
}
