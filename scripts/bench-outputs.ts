// chat-turns on the built-in engine with each network output on against none, side by side in one run: the engine's
// CPU per request at one rate, the runs alternating (none, prometheus-rw, …, opentelemetry, then the reverse) against one
// reference target, each output sending to a real store this script starts on 127.0.0.1 (Debian's Prometheus with its
// remote-write receiver; VictoriaMetrics, the pinned Go tool, for InfluxDB's line protocol and OTLP). Run alone:
//   npm run bench -- --outputs [--rate 600] [--seconds 20] [--rounds 4] [--only influxdb,opentelemetry] [--store-equal]
// The stores run under SCHED_IDLE (`chrt --idle`), on what the engine and the target leave idle: a nightly's store is on
// machines of its own, and here one parsing 40,000 lines a second takes the target's cores, its answers slow, the engine
// holds more VUs, and the engine's CPU per request measures a saturated machine rather than the output.
// `--store-equal` runs the stores at the engine's priority instead.

import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureGoTool } from '../src/tools/go-tools.js';
import { findPrometheus, type MetricsStore, startPrometheus, startVictoriaMetrics } from '../tests/metrics-stores.js';
import { type ChatTurnsRow, chatTurns, startTarget, stopTarget, type Target } from './bench-engine.js';

const ROOT = join(import.meta.dirname, '..');

interface Variant {
  readonly name: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface OutputsBench {
  readonly rate: number;
  readonly seconds: number;
  /** How the stores were scheduled: 'idle' (SCHED_IDLE, every thread) or 'equal' (as started). */
  readonly stores: 'idle' | 'equal';
  readonly rows: Readonly<Record<string, readonly ChatTurnsRow[]>>;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

function variants(prom: MetricsStore | undefined, vm: MetricsStore): Variant[] {
  const vmHost = new URL(vm.url).host;
  return [
    { name: 'none', args: [], env: {} },
    ...(prom
      ? [
          {
            name: 'experimental-prometheus-rw',
            args: ['--out', 'experimental-prometheus-rw'],
            env: { K6_PROMETHEUS_RW_SERVER_URL: `${prom.url}/api/v1/write`, K6_PROMETHEUS_RW_TREND_STATS: 'p(95),p(99),min,max,count,sum' },
          },
          {
            name: 'experimental-prometheus-rw, native histograms',
            args: ['--out', 'experimental-prometheus-rw'],
            env: { K6_PROMETHEUS_RW_SERVER_URL: `${prom.url}/api/v1/write`, K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: 'true' },
          },
        ]
      : []),
    { name: 'influxdb', args: ['--out', `influxdb=${vm.url}/k6`], env: {} },
    {
      name: 'opentelemetry',
      args: ['--out', 'opentelemetry'],
      env: {
        K6_OTEL_EXPORTER_TYPE: 'http',
        K6_OTEL_HTTP_EXPORTER_ENDPOINT: vmHost,
        K6_OTEL_HTTP_EXPORTER_URL_PATH: '/opentelemetry/v1/metrics',
        K6_OTEL_HTTP_EXPORTER_INSECURE: 'true',
      },
    },
  ];
}

export interface OutputsAsked {
  readonly rate?: number | undefined;
  readonly seconds?: number | undefined;
  readonly rounds?: number | undefined;
  /** The outputs to run beside none (every one when not given), by their names in the table. */
  readonly only?: readonly string[] | undefined;
  readonly storesEqual?: boolean | undefined;
}

/** Puts every thread of a process under SCHED_IDLE; false when chrt could not. */
function idle(pid: number): boolean {
  return spawnSync('chrt', ['--all-tasks', '--idle', '--pid', '0', String(pid)], { stdio: 'ignore' }).status === 0;
}

/** Whether a variant is one `--only` asked for: by its name in the table, or by its output (both Prometheus variants). */
const asks = (v: Variant, name: string) => v.name === name || outputOf(v) === name;
/** The output a variant turns on, as `--out` names it (without its address). */
const outputOf = (v: Variant) => v.args[1]?.split('=')[0];

export async function benchOutputs(asked: OutputsAsked = {}): Promise<OutputsBench> {
  const rate = asked.rate ?? 600;
  const seconds = asked.seconds ?? 20;
  const work = mkdtempSync(join(tmpdir(), 'dialtone-bench-outputs-'));
  const promBin = findPrometheus();
  const prom = promBin ? await startPrometheus(promBin, { nativeHistograms: true }) : undefined;
  const vm = await startVictoriaMetrics(ensureGoTool(ROOT, 'victoria-metrics'));
  const stores = asked.storesEqual ? 'equal' : 'idle';
  const all = variants(prom, vm);
  const chosen = all.filter((v) => v.name === 'none' || !asked.only || asked.only.some((name) => asks(v, name)));
  const rows: Record<string, ChatTurnsRow[]> = Object.fromEntries(chosen.map((v) => [v.name, []]));
  let target: Target | undefined;
  try {
    const unknown = asked.only?.filter((name) => !all.some((v) => asks(v, name)));
    if (unknown?.length)
      throw new Error(`--only ${unknown.join(',')}: no such output here; the outputs are ${[...new Set(all.slice(1).map(outputOf))].join(', ')}`);
    if (stores === 'idle' && ![prom, vm].every((store) => !store || idle(store.pid)))
      throw new Error('chrt could not put the stores under SCHED_IDLE; pass --store-equal to run them as started');
    target = await startTarget(join(work, 'target'));
    // Odd rounds run the variants in the reverse order: a drift of the machine over the run falls on each side alike.
    for (let i = 0; i < (asked.rounds ?? 4); i++) {
      const order = i % 2 ? [...chosen].reverse() : chosen;
      for (const v of order) rows[v.name]?.push(await chatTurns(target, rate, seconds, work, ROOT, v));
    }
  } finally {
    if (target) await stopTarget(target);
    await Promise.all([prom?.stop(), vm.stop()]);
  }
  return { rate, seconds, stores, rows };
}

export function outputsTable(r: OutputsBench): string {
  const base = median((r.rows.none ?? []).map((x) => x.engine_cpu_ms_per_request));
  const lines = Object.entries(r.rows).map(([name, rows]) => {
    const cpu = median(rows.map((x) => x.engine_cpu_ms_per_request));
    const each = rows.map((x) => x.engine_cpu_ms_per_request.toFixed(3)).join(', ');
    const delivered = median(rows.map((x) => x.delivered_conversations_per_s));
    return `| ${name} | ${each} | ${cpu.toFixed(3)} | ${((cpu / base - 1) * 100).toFixed(1)} % | ${delivered.toFixed(0)} |`;
  });
  return [
    `chat-turns at ${r.rate} conversations/s for ${r.seconds} s on the built-in engine, each output against none, alternating;`,
    `the stores ${r.stores === 'idle' ? 'under SCHED_IDLE' : "at the engine's priority"}:`,
    '',
    '| output | engine CPU ms per request, each run | median | over none | conversations/s delivered |',
    '| --- | --- | --- | --- | --- |',
    ...lines,
  ].join('\n');
}
