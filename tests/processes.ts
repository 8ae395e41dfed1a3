// The processes a test's run left behind, found by a mark in their environment (dialtone, the engine and anything
// they started inherit it).
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of this machine's processes whose environment carries `mark`. */
export function processesMarked(mark: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(mark);
      } catch {
        return false;
      }
    })
    .map(Number);
}
