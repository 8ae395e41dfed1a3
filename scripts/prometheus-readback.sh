#!/usr/bin/env bash
# Starts a Prometheus (Debian's package) with its remote-write receiver on 127.0.0.1, runs `dialtone load chat-turns`
# (smoke, 5 s, built-in engine) with --out experimental-prometheus-rw, then reads back the request count and the p95 of
# http_req_duration{op:chat.respond} through its HTTP API: exit 0 only when both are within 1 % of summary.json.
# Run from the repository root: bash scripts/prometheus-readback.sh
set -euo pipefail
D=$(mktemp -d)
printf 'global:\n  scrape_interval: 1h\n' > "$D/prometheus.yml"
prometheus --web.enable-remote-write-receiver --storage.tsdb.path="$D/data" \
  --web.listen-address=127.0.0.1:19091 --config.file="$D/prometheus.yml" > "$D/prometheus.log" 2>&1 &
PROM=$!
trap 'kill $PROM 2>/dev/null; wait $PROM 2>/dev/null; rm -rf "$D"' EXIT
until curl -sf 127.0.0.1:19091/-/ready > /dev/null; do sleep 0.2; done

K6_PROMETHEUS_RW_SERVER_URL=http://127.0.0.1:19091/api/v1/write \
K6_PROMETHEUS_RW_TREND_STATS='p(95),p(99),min,max,count,sum' K6_PROMETHEUS_RW_PUSH_INTERVAL=1s \
  node bin/dialtone.mjs load chat-turns --engine builtin --workload smoke --duration 5s \
  --report-dir "$D/reports" --out experimental-prometheus-rw

q() {
  curl -s 127.0.0.1:19091/api/v1/query --data-urlencode "query=$1" |
    node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s).data.result[0]?.value[1]))'
}
COUNT=$(q 'sum(k6_http_reqs_total)')
P95=$(q 'k6_http_req_duration_p95{op="chat.respond"}')
node -e '
const s = require(process.argv[1]).metrics;
const count = Number(process.argv[2]);
const p95 = Number(process.argv[3]) * 1000; // Prometheus holds seconds
const own = { count: s.http_reqs.count, p95: s["http_req_duration{op:chat.respond}"]["p(95)"] };
const off = (a, b) => `${((Math.abs(a - b) / b) * 100).toFixed(4)} %`;
console.log(`http_reqs: Prometheus ${count}, summary.json ${own.count} (off ${off(count, own.count)})`);
console.log(`p95 of http_req_duration{op:chat.respond}: Prometheus ${p95.toFixed(3)} ms, summary.json ${own.p95.toFixed(3)} ms (off ${off(p95, own.p95)})`);
process.exit(Math.abs(count - own.count) / own.count < 0.01 && Math.abs(p95 - own.p95) / own.p95 < 0.01 ? 0 : 1);
' "$(find "$D/reports" -name summary.json | head -1)" "$COUNT" "$P95"
