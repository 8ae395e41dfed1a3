// Follows k6's Archive Command page (https://grafana.com/docs/k6/latest/misc/archive/): "k6 will run the init stage of
// the code to determine which JS files are being imported and what data files are being open()'ed and bundles all of
// the files up into a tar file", and "k6 run is compatible with archive files". A script with a local module, a remote
// one (served by tests/k6-corpus/module-server.ts; the test writes its address in place of MODULES), a file it
// open()s and a top-level await: its archive must run with the module server gone and no module cache.

import { uuidv4 } from 'https://MODULES/k6-utils/latest/index.js';
import { check } from 'k6';
import http from 'k6/http';
import { config } from './lib/await-config.js';

const payload = await open('./data/payload.txt');

export const options = {
  vus: 2,
  iterations: 4,
};

export default function () {
  const res = http.post(`${__ENV.BASE_URL}${config.path}`, payload, { headers: { 'Content-Type': 'text/plain', 'X-Id': uuidv4() } });
  check(res, { 'archived run reached the target': (r) => r.status === 200 });
}
