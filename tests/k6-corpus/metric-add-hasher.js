// Two small returns k6 scripts rely on. k6/metrics, Counter.add(value, [tags]): "Add a value to the Counter metric"
// (https://grafana.com/docs/k6/latest/javascript-api/k6-metrics/counter/counter-add/); k6's add returns true, which
// scripts check. k6/crypto, createHash: "a hashing object that can then be fed with data repeatedly, and from which you
// can extract a hash digest whenever you want" (https://grafana.com/docs/k6/latest/javascript-api/k6-crypto/createhash/).
import { check } from 'k6';
import crypto from 'k6/crypto';
import { Counter, Trend } from 'k6/metrics';

const sent = new Counter('sent_things');
const sizes = new Trend('thing_sizes');

export const options = { vus: 1, iterations: 2 };

export default function () {
  check(null, {
    'Counter.add returned true': () => sent.add(1) === true,
    'Trend.add returned true': () => sizes.add(42, { kind: 'corpus' }) === true,
  });
  const hasher = crypto.createHash('sha256');
  hasher.update('a');
  const early = hasher.digest('hex');
  hasher.update('bc');
  check(hasher, {
    'a digest again is the same': () => early === crypto.sha256('a', 'hex'),
    'the hasher goes on after a digest': (h) => h.digest('hex') === crypto.sha256('abc', 'hex'),
  });
}
