// k6/experimental/fs open() of a file that does not exist (https://grafana.com/docs/k6/latest/javascript-api/k6-experimental/fs/open/):
// the promise rejects, and the init context fails. With top-level await this is `const file = await open(…)`; here
// the rejection is taken in the init context's own code, as a script without top-level await does.
import { open } from 'k6/experimental/fs';
import http from 'k6/http';

let failure;
const opening = open('./data/no-such-file.csv').catch((e) => {
  failure = e;
});

export default async function () {
  await opening;
  if (failure) throw failure;
  http.get(__ENV.BASE_URL);
}
