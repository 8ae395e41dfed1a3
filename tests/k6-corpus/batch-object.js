// Follows k6's http.batch() reference, "Example with request objects" and "Example object with named properties"
// (https://grafana.com/docs/k6/latest/javascript-api/k6-http/batch/).

import { check } from 'k6';
import http from 'k6/http';

export const options = {
  iterations: 3,
};

export default function () {
  const req1 = {
    method: 'GET',
    url: `${__ENV.BASE_URL}/anything/get`,
  };
  const req2 = {
    method: 'DELETE',
    url: `${__ENV.BASE_URL}/anything/delete`,
  };
  const req3 = {
    method: 'POST',
    url: `${__ENV.BASE_URL}/json`,
    body: JSON.stringify({ hello: 'world!' }),
    params: {
      headers: { 'Content-Type': 'application/json' },
    },
  };
  const responses = http.batch([req1, req2, req3]);
  // The target returns our POST data in the response body, so
  // we check the third response object to see that the POST worked.
  check(responses[2], {
    'form data OK': (res) => JSON.parse(res.body)['hello'] === 'world!',
  });

  const named = http.batch({
    'front page': `${__ENV.BASE_URL}/`,
    'json doc': { method: 'GET', url: `${__ENV.BASE_URL}/json` },
  });
  check(named['json doc'], {
    'named response is the json doc': (res) => res.json('name') === 'corpus',
  });
}
