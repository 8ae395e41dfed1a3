import Fastify from 'fastify';
import type { RuleId } from '../contract/index.js';
import { bareContext } from './bare-context.js';
import { registerControl } from './control-surface.js';
import { type HostKey, SURFACES } from './surfaces.js';

/** One endpoint of the target: the profile host it is served on (or the control port), its method and path pattern. */
export interface Route {
  readonly host: HostKey | 'control';
  readonly method: string;
  /** A fastify pattern: `:name` parameters, `*` wildcards. */
  readonly url: string;
  /** The rule saying the documents do not show this path, where the route says so (src/reference-target/not-shown.ts). */
  readonly notShown?: RuleId;
}

/**
 * Every route the reference target serves, read from the surfaces themselves (a throwaway instance of each, with
 * fastify's onRoute hook), so a new endpoint is fuzzed, and a new not-shown one enters the reference target's contract,
 * without anyone listing it anywhere else.
 *
 * @example
 * const notShown = (await listRoutes()).filter((r) => r.notShown); // the alert rule's GET, PATCH, DELETE, …
 */
export async function listRoutes(): Promise<Route[]> {
  const ctx = bareContext();
  const routes: Route[] = [];
  const collect = (host: Route['host']) => {
    const app = Fastify({ logger: false });
    app.addHook('onRoute', (r) => {
      const notShown = r.config?.notShown;
      for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ host, method, url: r.url ?? r.path, ...(notShown ? { notShown } : {}) });
    });
    return app;
  };
  const control = collect('control');
  registerControl(control, ctx);
  const apps = [control];
  const instances = Object.values(SURFACES).map((surface) => {
    const instance = surface.create(ctx);
    const app = collect(surface.host);
    instance.register(app);
    instance.control?.(control);
    apps.push(app);
    return instance;
  });
  await Promise.all(apps.map((a) => a.ready()));
  await Promise.all(instances.map((i) => i.close?.()));
  await Promise.all(apps.map((a) => a.close()));
  const seen = new Set<string>();
  return routes.filter((r) => {
    const key = `${r.host} ${r.method} ${r.url}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
