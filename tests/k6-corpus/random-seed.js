// Follows k6's randomSeed page (https://grafana.com/docs/k6/latest/javascript-api/k6/random-seed/): "Use randomSeed to
// get the same random number in all the iterations." Its example, with per-vu-iterations so the count is exact, and a
// check that the seed replays the whole sequence, not only its first number.
import { check, randomSeed } from 'k6';

export const options = {
  scenarios: {
    seeded: { executor: 'per-vu-iterations', vus: 2, iterations: 3 },
  },
};

export default function () {
  randomSeed(123456789);
  const rnd = Math.random();
  console.log(rnd);
  const next = [Math.random(), Math.random()];
  randomSeed(123456789);
  check(null, { 'the seed replays its sequence': () => Math.random() === rnd && Math.random() === next[0] && Math.random() === next[1] });
}
