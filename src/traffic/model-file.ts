import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { describeIssue } from '../profile/load.js';
import { TrafficModel } from './model.js';

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
