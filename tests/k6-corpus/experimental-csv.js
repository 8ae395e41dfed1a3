// Follows k6/experimental/csv (https://grafana.com/docs/k6/latest/javascript-api/k6-experimental/csv/) and
// k6/experimental/fs (https://grafana.com/docs/k6/latest/javascript-api/k6-experimental/fs/): the file opened in the
// init context, parsed whole with csv.parse (asObjects) and line by line with csv.Parser (skipFirstLine), each record
// posted to the target. The init context awaits in the async function @types/k6's fs typings give for it ("As the k6
// init context doesn't support 'await', use the following pattern"), so the script runs where top-level await does not.
import { check } from 'k6';
import { scenario } from 'k6/execution';
import csv from 'k6/experimental/csv';
import { open, SeekMode } from 'k6/experimental/fs';
import http from 'k6/http';

export const options = {
  iterations: 4,
};

let file;
let users;
let size;
let parser;
(async () => {
  file = await open('./data/users.csv');
  users = await csv.parse(file, { asObjects: true });
  size = (await file.stat()).size;
  parser = new csv.Parser(file, { skipFirstLine: true, fromLine: 2, toLine: 3 });
})();

export default async function () {
  const user = users[scenario.iterationInTest];
  http.post(`${__ENV.BASE_URL}/anything/login`, JSON.stringify(user), { headers: { 'Content-Type': 'application/json' } });
  // Lines 2 and 3 only, then done.
  const { done, value } = await parser.next();
  if (!done) http.post(`${__ENV.BASE_URL}/anything/streamed`, value.join('|'));
  // The file's own bytes: the last 5 read after seeking from the end.
  await file.seek(-5, SeekMode.End);
  const buffer = new Uint8Array(16);
  const n = await file.read(buffer);
  const eof = await file.read(buffer);
  check(null, {
    'the csv has 4 users': () => users.length === 4,
    'stat gives the size and name': () => size > 0,
    'read gives the tail, then null at the end': () => n === 5 && eof === null,
  });
}
