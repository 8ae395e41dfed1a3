// The load generator's own CPU: utime + stime of the engine process (k6 or the built-in one) and its children (Chromium for the
// browser scenario), read from /proc/<pid>/stat while it runs.
import { machineTicks, TICKS_PER_SECOND, treeTicks } from '../load/proc.js';

const SAMPLE_MS = 500;

/**
 * Samples a process tree's CPU from `fromMs` after now until stopped; `cores` is then the mean
 * number of cores it kept busy (undefined when fewer than two samples were taken).
 *
 * @example
 * const cpu = sampleCpu(child.pid, 3000); // … child exits …
 * cpu.stop(); cpu.cores; // e.g. 0.42; cpu.machineBusy: e.g. 0.97
 */
export function sampleCpu(pid: number, fromMs: number): { cores: number | undefined; machineBusy: number | undefined; stop: () => void } {
  const samples: { t: number; ticks: number; machine: { busy: number; total: number } }[] = [];
  const seen = { total: 0 };
  const begin = Date.now() + fromMs;
  const take = () => {
    const ticks = treeTicks(pid, seen);
    if (ticks > 0) samples.push({ t: Date.now(), ticks, machine: machineTicks() });
  };
  let timer: NodeJS.Timeout | undefined;
  const start = setTimeout(() => {
    take();
    timer = setInterval(take, SAMPLE_MS);
  }, fromMs);
  const result = {
    cores: undefined as number | undefined,
    /** Share of the whole machine's CPU that was busy meanwhile (every process: the target too, when it runs here). */
    machineBusy: undefined as number | undefined,
    stop() {
      clearTimeout(start);
      if (timer) clearInterval(timer);
      const first = samples.find((s) => s.t >= begin);
      const last = samples.at(-1);
      result.cores = first && last && last.t > first.t ? (last.ticks - first.ticks) / TICKS_PER_SECOND / ((last.t - first.t) / 1000) : undefined;
      const total = first && last ? last.machine.total - first.machine.total : 0;
      result.machineBusy = first && last && total > 0 ? (last.machine.busy - first.machine.busy) / total : undefined;
    },
  };
  return result;
}
