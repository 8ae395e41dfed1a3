// Follows k6's HTTP/2 page (https://grafana.com/docs/k6/latest/using-k6/protocols/http-2/): "k6 uses HTTP/2 by default
// when the server supports it", and its example's check that "r.proto === 'HTTP/2.0'". H2_URL offers h2 by ALPN,
// H1_URL only http/1.1; a batch goes to the h2 server, multiplexed on the VU's one connection there. The checks hold an
// abortOnFail threshold, as the k6 example the issue names does; the proto tag's sub-metrics count each protocol.
import { check } from 'k6';
import http from 'k6/http';

export const options = {
  scenarios: { h2: { executor: 'per-vu-iterations', vus: 2, iterations: 2 } },
  thresholds: {
    checks: [{ threshold: 'rate==1', abortOnFail: true }],
    'http_reqs{proto:HTTP/2.0}': ['count>0'],
    'http_reqs{proto:HTTP/1.1}': ['count>0'],
  },
};

export default function () {
  const res = http.get(`${__ENV.H2_URL}/anything/one`);
  check(res, {
    'status is 200': (r) => r.status === 200,
    'protocol is HTTP/2': (r) => r.proto === 'HTTP/2.0',
  });
  const batch = http.batch([1, 2, 3, 4, 5].map((n) => ['GET', `${__ENV.H2_URL}/anything/batch?n=${n}`]));
  check(batch, { 'every batch answer is HTTP/2': (rs) => rs.every((r) => r.status === 200 && r.proto === 'HTTP/2.0') });
  const old = http.post(`${__ENV.H1_URL}/anything/old`, 'x');
  check(old, { 'an http/1.1-only server answers over HTTP/1.1': (r) => r.status === 200 && r.proto === 'HTTP/1.1' });
}
