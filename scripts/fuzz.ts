// npm run fuzz [-- --seed N --requests N --frames N --max-seconds S]: fuzzes a reference target started in its own
// process, on loopback only, and prints the totals. Exit 1 when the target broke any promise (see src/fuzz/run.ts).
import { parseArgs } from 'node:util';
import { formatReport, runFuzz } from '../src/fuzz/run.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    requests: { type: 'string', default: '20000' },
    frames: { type: 'string', default: '5000' },
    'max-seconds': { type: 'string', default: '600' },
    dir: { type: 'string', default: '.dialtone/fuzz' },
  },
});
const num = (name: string, v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`fuzz: --${name} must be a whole number, got '${v}'`);
    process.exit(2);
  }
  return n;
};
const report = await runFuzz({
  seed: num('seed', values.seed),
  requests: num('requests', values.requests),
  frames: num('frames', values.frames),
  maxSeconds: num('max-seconds', values['max-seconds']),
  dir: values.dir,
  log: (line) => console.log(line),
});
console.log(formatReport(report));
process.exit(report.problems.length || report.slow.length ? 1 : 0);
