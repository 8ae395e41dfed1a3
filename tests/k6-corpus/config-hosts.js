// A script that names a host of its own and sets no hosts: a --config file gives them (k6 reads its options under the
// script's).

import { check } from 'k6';
import http from 'k6/http';

export const options = { iterations: 1, thresholds: { checks: ['rate==1.0'] } };

export default function () {
  const res = http.get('http://config.test.invalid/anything/configured');
  check(res, { 'the config file routes the host': (r) => r.status === 200 });
}
