import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { describeIssue } from '../profile/load.js';
import { TrafficModel } from './model.js';

/** The reference target's ops that wait for the agent: each answers with the learned agent latency. */
export const AGENT_OPS = ['chat.respond', 'messaging.reply', 'voice.reply', 'voice.first_agent_audio'] as const;

/**
 * Reads a traffic model file; a missing, unreadable or malformed one is a usage error naming `flag` and the first bad field.
 *
 * @example
 * readModel('traffic-model.json', '--latency').agent_latency_s.p50 // 1.203
 */
export function readModel(path: string, flag: string): TrafficModel {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`${flag}: ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message.split('\n')[0]}`);
  }
  const parsed = TrafficModel.safeParse(json);
  if (!parsed.success) throw new UsageError(`${flag}: not a traffic model: ${describeIssue(path, parsed.error)}`);
  return parsed.data;
}

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
