// Follows k6's Modules page (https://grafana.com/docs/k6/latest/using-k6/modules/#remote-modules): "These modules are
// accessed over HTTP(S), from a public source like GitHub, any CDN, or from any publicly accessible web server. The
// imported modules are downloaded and executed at runtime", as jslib's are: `import { randomItem } from
// 'https://jslib.k6.io/k6-utils/1.2.0/index.js'`. The modules here are dialtone's own, served over HTTPS on 127.0.0.1
// by tests/k6-corpus/module-server.ts; the corpus test writes its address in place of MODULES before the run.
// k6-utils/latest redirects to k6-utils/1.0.0, whose relative import resolves against the URL it was served from;
// k6-session imports k6/http itself.

import { Session } from 'https://MODULES/k6-session/0.1.0/index.js';
import { textSummary } from 'https://MODULES/k6-summary/0.1.0/index.js';
import { randomIntBetween, uuidv4 } from 'https://MODULES/k6-utils/latest/index.js';
import { check } from 'k6';
import http from 'k6/http';

export const options = {
  vus: 2,
  iterations: 6,
  thresholds: { checks: ['rate==1.0'] },
};

const session = new Session(__ENV.BASE_URL, { 'X-Session': 'remote' });

export default function () {
  // The remote session's method reaches http.request: the engine waits for it as for a call in the script.
  const got = session.get('/anything/session');
  const id = uuidv4();
  const n = randomIntBetween(1, 3);
  const res = http.post(`${__ENV.BASE_URL}/anything/remote`, JSON.stringify({ id, n }), { headers: { 'Content-Type': 'application/json' } });
  check(res, {
    'a version-4 uuid': () => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id),
    'an int from 1 to 3': () => Number.isInteger(n) && n >= 1 && n <= 3,
    'status 200': (r) => r.status === 200,
    'the session sent its header': () => got.json('headers.x-session') === 'remote',
  });
}

export function handleSummary(data) {
  return { stdout: `remote text summary\n${textSummary(data, { indent: ' ', enableColors: false })}` };
}
