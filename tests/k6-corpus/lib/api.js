// A local module for helpers.js, as in k6's Modules page, "Local modules"
// (https://grafana.com/docs/k6/latest/using-k6/modules/#local-modules): a helper that makes a request and checks it.

import { check } from 'k6';
import http from 'k6/http';

export function getCrocodiles(baseUrl) {
  const res = http.get(`${baseUrl}/json`);
  check(res, { 'crocodiles listed': (r) => r.json('crocodiles.#') === 2 });
  return res.json('crocodiles');
}
