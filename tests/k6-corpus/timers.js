// Follows k6's k6/timers reference (https://grafana.com/docs/k6/latest/javascript-api/k6-timers/): an interval cleared
// after its third run and a timeout that sends a request; the iteration lasts until both are done and the request
// answered.
import { check } from 'k6';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { clearInterval, setInterval, setTimeout } from 'k6/timers';

const ticks = new Counter('interval_ticks');

export const options = {
  iterations: 2,
};

export default function () {
  let runs = 0;
  const intervalId = setInterval(() => {
    ticks.add(1);
    runs++;
    if (runs === 3) clearInterval(intervalId);
  }, 50);
  setTimeout(() => {
    http.asyncRequest('GET', `${__ENV.BASE_URL}/delay?ms=500`).then((res) => {
      check(res, { 'the request of the timeout was answered': (r) => r.status === 200 });
    });
  }, 200);
}
