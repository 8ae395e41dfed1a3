// Follows k6's "Create custom metrics" page (https://grafana.com/docs/k6/latest/using-k6/metrics/create-custom-metrics/)
// and the k6/metrics reference (https://grafana.com/docs/k6/latest/javascript-api/k6-metrics/): one metric of each
// type, made in the init context and added to in the VU code.
import http from 'k6/http';
import { Counter, Gauge, Rate, Trend } from 'k6/metrics';

const myTrend = new Trend('waiting_time');
const myCounter = new Counter('my_counter');
const myGauge = new Gauge('my_gauge');
const myRate = new Rate('my_rate');

export const options = {
  iterations: 5,
};

export default function () {
  const r = http.get(`${__ENV.BASE_URL}/`);
  myTrend.add(r.timings.waiting);
  myCounter.add(1);
  myGauge.add(__ITER);
  myRate.add(r.status === 200);
}
