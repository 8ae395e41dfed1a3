import { UsageError } from '../errors.js';
import type { TrafficModel } from './model.js';

/** The reference target's ops that wait for the agent: each answers with the learned agent latency. */
export const AGENT_OPS = ['chat.respond', 'messaging.reply', 'voice.reply', 'voice.first_agent_audio'] as const;

/**
 * The latency spec (`dialtone target --latency`'s grammar) that makes the reference agent answer as the learned one
 * did: every agent op lognormal through the learned p50 and p95 of agent latency (a fit of two quantiles, not the
 * whole learned shape).
 *
 * @example
 * learnedLatencySpec(model) // 'chat.respond=lognormal:p50=1203ms,p95=3010ms;messaging.reply=…'
 */
export function learnedLatencySpec(model: TrafficModel): string {
  const q = model.agent_latency_s;
  if (q.n === 0) throw new UsageError('--latency: the traffic model has no agent latency (its records had no turns)');
  const ms = (s: number) => `${Math.max(1, Math.round(s * 1000))}ms`;
  // A lognormal needs p95 above p50; a model edited to equal figures gets the narrowest spread instead.
  const p95 = Math.max(q.p95, q.p50 * 1.001);
  return AGENT_OPS.map((op) => `${op}=lognormal:p50=${ms(q.p50)},p95=${ms(p95)}`).join(';');
}
