import type { FastifyInstance } from 'fastify';

/** The variable that slows the reference target down on purpose: milliseconds added before every answer. */
export const DELAY_ENV = 'DIALTONE_TARGET_DELAY_MS';

/**
 * Adds DIALTONE_TARGET_DELAY_MS milliseconds before each request is handled: a planted slowdown, so a
 * nightly regression verdict can be shown to catch one. It breaks no documented rule, so it is a knob,
 * not a defect. Unset or 0: nothing is added.
 *
 * @example
 * DIALTONE_TARGET_DELAY_MS=20 npx dialtone load chat-turns   // every chat call about 20 ms slower
 */
export function addPlantedDelay(app: FastifyInstance, env: NodeJS.ProcessEnv = process.env): void {
  const ms = Number(env[DELAY_ENV] ?? 0);
  if (!(Number.isFinite(ms) && ms > 0)) return;
  app.addHook('onRequest', (_req, _reply, done) => {
    setTimeout(done, ms);
  });
}
