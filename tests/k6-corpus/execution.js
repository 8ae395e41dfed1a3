// Follows k6's k6/execution reference (https://grafana.com/docs/k6/latest/javascript-api/k6-execution/): the scenario's
// name, the VU's id in the test and the iteration's number in the scenario, sent to the target with every request.

import exec from 'k6/execution';
import http from 'k6/http';

export const options = {
  scenarios: {
    myscenario: {
      // this will be the returned name
      executor: 'per-vu-iterations',
      vus: 3,
      iterations: 2,
      maxDuration: '30m',
    },
  },
};

export default function () {
  http.get(
    `${__ENV.BASE_URL}/anything/exec?scenario=${exec.scenario.name}&executor=${exec.scenario.executor}&vu=${exec.vu.idInTest}&iter=${exec.scenario.iterationInTest}`,
  );
}
