import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { parseCapacity } from '../../target/capacity.js';
import { startTarget } from '../../target/server.js';
import { SURFACES } from '../../target/surfaces.js';
import { parse } from '../args.js';
import { UsageError } from '../errors.js';
import { defectIds } from '../target-session.js';

export const usage = `dialtone target [--defect ID]... [--profile-out FILE] [--seed N] [--capacity SURFACE=N]...
  Starts the reference target on free loopback ports and writes a profile for it (default
  .dialtone/reference.json). Its credentials go to a sibling .env file (mode 600) that the profile
  names in env_file; they are never printed. Runs until interrupted.
  --capacity SURFACE=N makes a surface serve N requests per second and no more (a queue with a fixed
  service time), so 'dialtone capacity' can be checked against a known capacity.`;

/** Starts the reference target in the foreground. */
export async function target(argv: string[]): Promise<number> {
  const { values } = parse('target', argv, {
    defect: { type: 'string', multiple: true },
    'profile-out': { type: 'string' },
    seed: { type: 'string' },
    capacity: { type: 'string', multiple: true },
  });
  const capacity = parseCapacity(values.capacity ?? [], Object.keys(SURFACES));
  if ('error' in capacity) throw new UsageError(`target: ${capacity.error}`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isInteger(seed)) throw new UsageError(`target: --seed must be an integer, got '${values.seed}'`);
  const running = await startTarget({ defects: defectIds(values.defect ?? []), ...(seed !== undefined ? { seed } : {}), capacity: capacity.settings });
  const out = resolve(values['profile-out'] ?? '.dialtone/reference.json');
  const envFile = `${out.replace(/\.json$/, '')}.env`;
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    envFile,
    `${Object.entries(running.env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
    { mode: 0o600 },
  );
  writeFileSync(out, `${JSON.stringify({ ...running.profile, env_file: basename(envFile) }, null, 2)}\n`);
  console.log(
    `reference target listening: ${Object.entries(running.profile.hosts)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
  if (running.context.defects.ids.length) console.log(`defects on: ${running.context.defects.ids.join(', ')}`);
  console.log(`profile: ${out} (credentials in ${envFile}); stop with Ctrl-C`);
  await new Promise<void>((done) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => done());
  });
  await running.close();
  return 0;
}
