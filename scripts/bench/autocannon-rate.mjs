// autocannon in a process of its own, so scripts/bench-engine.ts can read its CPU from /proc as it reads the engine's.
// argv[2]: JSON of autocannon's options (url, method, headers, body, connections, overallRate, duration). Prints the
// result's counts as one JSON line on stdout.
import autocannon from 'autocannon';

const opts = JSON.parse(process.argv[2]);
console.log('started');
autocannon(opts, (err, r) => {
  if (err) {
    console.error(err.message);
    process.exit(1);
  }
  console.log(JSON.stringify({ sent: r.requests.sent, completed: r['2xx'], non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts, seconds: r.duration }));
});
