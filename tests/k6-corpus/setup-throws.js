// setup() that throws, as a script whose test data cannot be made should. Test lifecycle
// (https://grafana.com/docs/k6/latest/using-k6/test-lifecycle/): "If the setup() function throws an error, the
// teardown() function isn't called." What the user reads is the error and where it was thrown in the script: k6 shows
// the script's frames only, never its own Go code, and so does the built-in engine, none of dialtone's files.
import { check } from 'k6';

export const options = { vus: 1, iterations: 1 };

function makeUsers() {
  throw new Error('no test users could be made');
}

export function setup() {
  return { users: makeUsers() };
}

export default function (data) {
  check(data, { 'setup gave users': (d) => d.users !== undefined });
}

export function teardown() {
  console.log('teardown ran');
}
