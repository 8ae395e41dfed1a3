// Follows k6's "Running k6" page, "Set options" (https://grafana.com/docs/k6/latest/get-started/running-k6/#set-options),
// itself the script of "Write your first test": 10 VUs each looping over `http.get` and `sleep(1)`. The run lasts 3 s
// instead of the page's 30 s; BASE_URL is the corpus target, given as `k6 run -e BASE_URL=… quickstart.js`.

import { sleep } from 'k6';
import http from 'k6/http';

export const options = {
  vus: 10,
  duration: '3s',
};

export default function () {
  http.get(`${__ENV.BASE_URL}/`);
  sleep(1);
}
