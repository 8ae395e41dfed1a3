// Follows k6's Checks page (https://grafana.com/docs/k6/latest/using-k6/checks/): its three checks, on the status, on
// text in the body and on the body's size. The target's page is not 11,105 bytes, so that check fails every time.
import { check } from 'k6';
import http from 'k6/http';

export const options = {
  iterations: 6,
};

export default function () {
  const res = http.get(`${__ENV.BASE_URL}/`);
  check(res, {
    'is status 200': (r) => r.status === 200,
    'verify homepage text': (r) => r.body.includes('Collection of simple web-pages'),
    'body size is 11,105 bytes': (r) => r.body.length === 11105,
  });
}
