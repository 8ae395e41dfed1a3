// Follows k6's "Test lifecycle" page (https://grafana.com/docs/k6/latest/using-k6/test-lifecycle/): setup() makes a
// request and returns its data, the default function and teardown() get it.

import { check } from 'k6';
import http from 'k6/http';

export const options = {
  vus: 2,
  iterations: 4,
};

export function setup() {
  const res = http.get(`${__ENV.BASE_URL}/json`);
  return { data: res.json() };
}

export default function (data) {
  check(data, { 'setup data reached the VU': (d) => d.data.name === 'corpus' });
  http.post(`${__ENV.BASE_URL}/json`, JSON.stringify(data), {
    headers: { 'Content-Type': 'application/json' },
  });
}

export function teardown(data) {
  if (data.data.name !== 'corpus') {
    throw new Error(`incorrect data: ${JSON.stringify(data)}`);
  }
  http.get(`${__ENV.BASE_URL}/anything/teardown?name=${data.data.name}`);
}
