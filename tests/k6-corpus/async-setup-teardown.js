// Follows k6's "Test lifecycle" page (https://grafana.com/docs/k6/latest/using-k6/test-lifecycle/), written with async
// lifecycle functions as k6's jslib examples write setup() (for instance the aws S3Client page): setup's data reaches
// every iteration and teardown.

import { check } from 'k6';
import http from 'k6/http';

export const options = {
  vus: 2,
  iterations: 4,
};

export async function setup() {
  const res = await http.asyncRequest('GET', `${__ENV.BASE_URL}/json`);
  return { data: res.json() };
}

export default async function (data) {
  check(data, { 'setup data reached the VU': (d) => d.data.name === 'corpus' });
  await http.asyncRequest('POST', `${__ENV.BASE_URL}/json`, JSON.stringify(data), {
    headers: { 'Content-Type': 'application/json' },
  });
}

export async function teardown(data) {
  if (data.data.name !== 'corpus') {
    throw new Error(`incorrect data: ${JSON.stringify(data)}`);
  }
  await http.asyncRequest('GET', `${__ENV.BASE_URL}/anything/teardown?name=${data.data.name}`);
}
