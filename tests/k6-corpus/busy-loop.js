// A VU that never gives control back: its iteration is a synchronous loop. Graceful stop
// (https://grafana.com/docs/k6/latest/using-k6/scenarios/concepts/graceful-stop/): iterations still running at the
// scenario's end "get gracefulStop to finish, then they are interrupted": the run ends by itself, the iteration counted
// as interrupted (k6/execution's `exec.instance.iterationsInterrupted`), none as completed.
import exec from 'k6/execution';

export const options = {
  scenarios: {
    busy: { executor: 'constant-vus', vus: 1, duration: '500ms', gracefulStop: '1s' },
  },
};

export default function () {
  let spins = 0;
  while (spins >= 0) spins++;
}

export function teardown() {
  const i = exec.instance;
  console.log(`interrupted=${i.iterationsInterrupted} completed=${i.iterationsCompleted}`);
}
