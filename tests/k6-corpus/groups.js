// Follows k6's "Tags and Groups" page, "Groups" (https://grafana.com/docs/k6/latest/using-k6/tags-and-groups/#groups)
// and the group() reference (https://grafana.com/docs/k6/latest/javascript-api/k6/group/): groups with synchronous
// functions, one nested in another, with requests and checks inside.

import { check, group } from 'k6';
import http from 'k6/http';

export const options = {
  iterations: 3,
};

export default function () {
  group('visit product listing page', () => {
    const res = http.get(`${__ENV.BASE_URL}/`);
    check(res, { 'is status 200': (r) => r.status === 200 });
  });
  group('add several products to the shopping cart', () => {
    http.post(`${__ENV.BASE_URL}/json`, JSON.stringify({ product: 1 }), {
      headers: { 'Content-Type': 'application/json' },
    });
    group('checkout process', () => {
      const res = http.get(`${__ENV.BASE_URL}/json`);
      check(res, { 'has two crocodiles': (r) => r.json('crocodiles.#') === 2 });
    });
  });
}
