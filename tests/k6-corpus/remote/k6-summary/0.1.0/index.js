// A text summary of dialtone's own for handleSummary(data), shaped like the one k6 scripts import from a CDN: one line a
// metric, its values by name, and each threshold with ✓ or ✗. Served by the corpus's HTTPS module server.
const fmt = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2));

export function textSummary(data, options = {}) {
  const indent = options.indent ?? ' ';
  const lines = [];
  for (const name of Object.keys(data.metrics).sort()) {
    const metric = data.metrics[name];
    const values = Object.entries(metric.values)
      .map(([k, v]) => `${k}=${fmt(v)}`)
      .join(' ');
    lines.push(`${indent}${name}${'.'.repeat(Math.max(2, 32 - name.length))}: ${values}`);
    for (const [expr, t] of Object.entries(metric.thresholds ?? {})) lines.push(`${indent}${indent}${t.ok ? '✓' : '✗'} ${expr}`);
  }
  return `${lines.join('\n')}\n`;
}
