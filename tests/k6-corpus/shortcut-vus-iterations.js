// Follows k6's shared-iterations page (https://grafana.com/docs/k6/latest/using-k6/scenarios/executors/shared-iterations/):
// "For a shortcut to this executor, use the vus and iterations options."

import { sleep } from 'k6';
import http from 'k6/http';

export const options = {
  vus: 5,
  iterations: 20,
};

export default function () {
  http.get(`${__ENV.BASE_URL}/`);
  sleep(0.1);
}
