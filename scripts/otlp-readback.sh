#!/usr/bin/env bash
# Starts VictoriaMetrics (the project's pinned Go tool, .tools/bin/victoria-metrics, which npm install builds) on
# 127.0.0.1 taking OTLP over HTTP, runs `dialtone load chat-turns` (smoke, 30/s, 5 s, built-in engine) with
# --out opentelemetry, then reads back the request count and the p95 of http_req_duration through its HTTP API: exit 0
# only when both are within 1 % of summary.json. Trends go as exponential histograms of 2048 buckets; the p95 is read
# from the run's last export (an earlier export's buckets may be of another scale).
# Run from the repository root: bash scripts/otlp-readback.sh
set -euo pipefail
D=$(mktemp -d)
GOMAXPROCS=1 .tools/bin/victoria-metrics -httpListenAddr=127.0.0.1:18428 -storageDataPath="$D/data" \
  -search.latencyOffset=0s -search.disableCache > "$D/victoria-metrics.log" 2>&1 &
VM=$!
trap 'kill $VM 2>/dev/null; wait $VM 2>/dev/null; rm -rf "$D"' EXIT
until curl -sf 127.0.0.1:18428/health > /dev/null; do sleep 0.2; done

SERVICE="readback-$$"
K6_OTEL_SERVICE_NAME="$SERVICE" K6_OTEL_EXPORTER_TYPE=http K6_OTEL_HTTP_EXPORTER_ENDPOINT=127.0.0.1:18428 \
K6_OTEL_HTTP_EXPORTER_URL_PATH=/opentelemetry/v1/metrics K6_OTEL_HTTP_EXPORTER_INSECURE=true DIALTONE_OTEL_HISTOGRAM_BUCKETS=2048 \
  node bin/dialtone.mjs load chat-turns --engine builtin --workload smoke --rate 30 --duration 5s \
  --report-dir "$D/reports" --out opentelemetry

q() {
  curl -s 127.0.0.1:18428/api/v1/query --data-urlencode "query=$1" |
    node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s).data.result[0]?.value[1]))'
}
OF="\"service.name\"=\"$SERVICE\""
BUCKETS="http_req_duration_bucket{$OF}"
LAST="(last_over_time($BUCKETS[1h]) and tlast_over_time($BUCKETS[1h]) >= scalar(max(tlast_over_time($BUCKETS[1h]))) - 0.5)"
# The store makes what it took searchable a moment later: asked again until the count is there.
for _ in $(seq 1 40); do
  COUNT=$(q "sum(last_over_time(http_reqs{$OF}[1h]))")
  [ "$COUNT" != undefined ] && break
  sleep 0.25
done
P95=$(q "histogram_quantile(0.95, sum($LAST) by (vmrange))")
node -e '
const s = require(process.argv[1]).metrics;
const count = Number(process.argv[2]);
const p95 = Number(process.argv[3]);
const own = { count: s.http_reqs.count, p95: s.http_req_duration["p(95)"] };
const off = (a, b) => `${((Math.abs(a - b) / b) * 100).toFixed(4)} %`;
console.log(`http_reqs: VictoriaMetrics ${count}, summary.json ${own.count} (off ${off(count, own.count)})`);
console.log(`p95 of http_req_duration: VictoriaMetrics ${p95.toFixed(3)} ms, summary.json ${own.p95.toFixed(3)} ms (off ${off(p95, own.p95)})`);
process.exit(Math.abs(count - own.count) / own.count < 0.01 && Math.abs(p95 - own.p95) / own.p95 < 0.01 ? 0 : 1);
' "$(find "$D/reports" -name summary.json | head -1)" "$COUNT" "$P95"
