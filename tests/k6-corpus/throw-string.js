// A script that throws a string, as older k6 examples and many scripts do (`throw 'unexpected status'`). fail()
// (https://grafana.com/docs/k6/latest/javascript-api/k6/fail/): "fail() is a simple convenience wrapper on top of
// JavaScript's throw()", and the thrown text is the "Error message that gets printed to stderr". k6 prints it with where
// it was thrown in the script (its file:line), as for an Error; a string thrown and caught stays the string.
import { check } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';

export const options = { vus: 1, iterations: 2 };

function refuse(why) {
  throw `refused: ${why}`;
}

export default function () {
  try {
    throw 'inner';
  } catch (e) {
    check(e, { 'what was thrown is caught as it was': (x) => x === 'inner' });
  }
  http.get(`${__ENV.BASE_URL}/json`);
  if (exec.scenario.iterationInTest === 0) refuse('the first iteration');
}
