// Follows k6's options reference (https://grafana.com/docs/k6/latest/using-k6/k6-options/reference/): minIterationDuration,
// "Specify the minimum duration for every single execution". Two VUs for 3 s whose iterations take a request each but
// must last a second: at most three iterations a VU.
import http from 'k6/http';

export const options = {
  minIterationDuration: '1s',
  scenarios: {
    paced: { executor: 'constant-vus', vus: 2, duration: '3s' },
  },
};

export default function () {
  http.get(`${__ENV.BASE_URL}/`);
}
