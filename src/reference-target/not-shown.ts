import type { RuleId } from '../contract/index.js';

// The routes the reference target serves where the documents are silent: each names the rule that says its path is not
// shown, so the reference target's own contract (src/reference-target/contract.ts) lists it from the route table
// itself, quoting that rule, and the published contract never does.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The rule saying this route's path is not shown in the documents; absent on documented routes. */
    notShown?: RuleId;
  }
}

/**
 * The route options that mark a route as one the documents do not show.
 *
 * @example
 * scope.route({ method: 'DELETE', url: '/alert-rules/:ruleId', ...notShown('alerts.rules.single-rule-paths'), handler });
 */
export function notShown(rule: RuleId): { config: { notShown: RuleId } } {
  return { config: { notShown: rule } };
}
