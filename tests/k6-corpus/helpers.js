// Follows k6's Modules page, "Local modules" (https://grafana.com/docs/k6/latest/using-k6/modules/#local-modules):
// requests made in a helper function this script defines and in one it imports from ./lib/api.js.

import { check, sleep } from 'k6';
import http from 'k6/http';
import { getCrocodiles } from './lib/api.js';

export const options = {
  vus: 2,
  iterations: 4,
};

function visitHome() {
  const res = http.get(`${__ENV.BASE_URL}/`);
  check(res, { 'home is 200': (r) => r.status === 200 });
  return res;
}

export default function () {
  visitHome();
  const crocodiles = getCrocodiles(__ENV.BASE_URL);
  http.get(`${__ENV.BASE_URL}/anything/crocodile/${crocodiles[0].id}`);
  sleep(0.1);
}
