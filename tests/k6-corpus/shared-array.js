// Follows k6's data parameterization example "Retrieving unique data"
// (https://grafana.com/docs/k6/latest/examples/data-parameterization/#retrieving-unique-data) and the SharedArray
// reference (https://grafana.com/docs/k6/latest/javascript-api/k6-data/sharedarray/): each user once, posted as a form.

import { SharedArray } from 'k6/data';
import { scenario } from 'k6/execution';
import http from 'k6/http';

const data = new SharedArray('users', () => JSON.parse(open('./data/users.json')).users);

export const options = {
  scenarios: {
    'use-all-the-data': {
      executor: 'shared-iterations',
      vus: 3,
      iterations: data.length,
      maxDuration: '1h',
    },
  },
};

export default function () {
  // this is unique even in the cloud
  const user = data[scenario.iterationInTest];
  http.post(`${__ENV.BASE_URL}/form`, { username: user.username, password: user.password });
}
