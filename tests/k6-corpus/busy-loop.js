// A VU that never gives control back: its iteration is a synchronous loop. Graceful stop
// (https://grafana.com/docs/k6/latest/using-k6/scenarios/concepts/graceful-stop/): iterations still running at the
// scenario's end "get gracefulStop to finish, then they are interrupted": the run ends by itself, the iteration counted
// as interrupted (k6/execution's `exec.instance.iterationsInterrupted`), none as completed.
import exec from 'k6/execution';

export const options = {
  scenarios: {
    // BUSY_FOR: a run stopped by Ctrl-C long before its end (stop.ts) is interrupted at once, a busy VU too.
    busy: { executor: 'constant-vus', vus: 1, duration: __ENV.BUSY_FOR || '500ms', gracefulStop: '1s' },
  },
};

export default function () {
  if (__ENV.BUSY_FOR) console.log('spinning');
  let spins = 0;
  while (spins >= 0) spins++;
}

export function teardown() {
  const i = exec.instance;
  console.log(`interrupted=${i.iterationsInterrupted} completed=${i.iterationsCompleted}`);
}
