import Fastify from 'fastify';
import { bareContext } from '../reference-target/bare-context.js';
import { registerControl } from '../reference-target/control-surface.js';
import { type HostKey, SURFACES } from '../reference-target/surfaces.js';

/** One endpoint of the target: the profile host it is served on (or the control port), its method and path pattern. */
export interface FuzzRoute {
  readonly host: HostKey | 'control';
  readonly method: string;
  /** A fastify pattern: `:name` parameters, `*` wildcards. */
  readonly url: string;
}

/**
 * Every route the reference target serves, read from the surfaces themselves (a throwaway instance of each, with
 * fastify's onRoute hook), so a new endpoint is fuzzed without anyone listing it here.
 *
 * @example
 * const routes = await listRoutes(); // [{ host: 'base_url', method: 'POST', url: '/:version/:account/:project/chat/create' }, …]
 */
export async function listRoutes(): Promise<FuzzRoute[]> {
  const ctx = bareContext();
  const routes: FuzzRoute[] = [];
  const collect = (host: FuzzRoute['host']) => {
    const app = Fastify({ logger: false });
    app.addHook('onRoute', (r) => {
      for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ host, method, url: r.url ?? r.path });
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
