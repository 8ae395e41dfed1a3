// The load generator's own CPU: utime + stime of the k6 process and its children (Chromium for the
// browser scenario), read from /proc/<pid>/stat while it runs.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on every Linux ABI in use). */
const TICKS_PER_S = 100;
const SAMPLE_MS = 500;

/** CPU ticks (user + system, including reaped children) of one process, or 0 when it is gone. */
function ticksOf(pid: number): number {
  try {
    // The command name (field 2) may hold spaces; fields after its closing parenthesis are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state(3) ppid(4) … utime(14) stime(15) cutime(16) cstime(17), so index = field - 3.
    return Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  } catch {
    return 0;
  }
}

/** The pids of a process and all its descendants, through /proc/<pid>/task/<tid>/children. */
function tree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    const p = out[i] as number;
    try {
      for (const tid of readdirSync(`/proc/${p}/task`)) {
        const kids = readFileSync(`/proc/${p}/task/${tid}/children`, 'utf8').trim();
        if (kids) out.push(...kids.split(/\s+/).map(Number));
      }
    } catch {
      // the process ended between two reads
    }
  }
  return out;
}

/**
 * The tree's ticks, monotonic: a process that ended keeps the last ticks seen (its parent may not
 * have reaped it into cutime yet), so the total never falls when a child exits.
 */
function treeTicks(pid: number, seen: Map<number, number>): number {
  for (const p of tree(pid)) seen.set(p, Math.max(seen.get(p) ?? 0, ticksOf(p)));
  return [...seen.values()].reduce((a, b) => a + b, 0);
}

/**
 * Samples a process tree's CPU from `fromMs` after now until stopped; `cores` is then the mean
 * number of cores it kept busy (undefined when fewer than two samples were taken).
 *
 * @example
 * const cpu = sampleCpu(child.pid, 3000); // … child exits …
 * cpu.stop(); cpu.cores; // e.g. 0.42
 */
export function sampleCpu(pid: number, fromMs: number): { cores: number | undefined; stop: () => void } {
  const samples: { t: number; ticks: number }[] = [];
  const seen = new Map<number, number>();
  const begin = Date.now() + fromMs;
  const take = () => {
    const ticks = treeTicks(pid, seen);
    if (ticks > 0) samples.push({ t: Date.now(), ticks });
  };
  let timer: NodeJS.Timeout | undefined;
  const start = setTimeout(() => {
    take();
    timer = setInterval(take, SAMPLE_MS);
  }, fromMs);
  const result = {
    cores: undefined as number | undefined,
    stop() {
      clearTimeout(start);
      if (timer) clearInterval(timer);
      const first = samples.find((s) => s.t >= begin);
      const last = samples.at(-1);
      result.cores = first && last && last.t > first.t ? (last.ticks - first.ticks) / TICKS_PER_S / ((last.t - first.t) / 1000) : undefined;
    },
  };
  return result;
}
