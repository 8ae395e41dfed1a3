// Concurrent echo calls on the reference target: how many one target process carries with (almost) no audio lost,
// and its CPU and memory per call. Run: node --import tsx scripts/bench-voice.ts [--calls 10,20,40,60] [--seconds 10]
//
// The target runs in a child process of its own (one JavaScript thread: one core), so its CPU and memory are measured
// apart from the callers, which run here. Loss is round trip: packets the callers sent in the window that did not come
// back through the echo.
import { type ChildProcess, spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Encoder } from '@evan/opus';
import { VoiceClient } from '../src/clients/voice.js';
import { CHANNELS, RATE, ToneGenerator } from '../src/clients/voice-audio.js';
import type { VoiceCall } from '../src/clients/voice-call.js';
import { resolveSecrets } from '../src/profile/load.js';
import type { Profile } from '../src/profile/schema.js';
import { Ticker } from '../src/reference-target/voice/ticker.js';

/**
 * One second of a 660 Hz tone as 50 Opus packets, encoded once: 660 whole cycles, so it loops without a seam. The
 * callers only encrypt and send, so they are not the bottleneck of the measurement.
 */
function toneLoop(): Buffer[] {
  const encoder = new Encoder({ channels: CHANNELS, sample_rate: RATE, application: 'audio' });
  const tone = new ToneGenerator(660, 0.25);
  return Array.from({ length: 50 }, () => Buffer.from(encoder.encode(tone.next())));
}

interface Usage {
  readonly cpuUs: number;
  readonly rss: number;
  readonly at: number;
  /** The target's worst event-loop delay since the last sample, in ms: a saturated target shows it first. */
  readonly lagMs: number;
}

/** The child: start the target, print its profile, answer each stdin line with a usage sample. */
async function serve(): Promise<void> {
  const { startTarget } = await import('../src/reference-target/server.js');
  const target = await startTarget();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  process.stdout.write(`${JSON.stringify({ profile: target.profile, env: target.env })}\n`);
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'quit') return void target.close().then(() => process.exit(0));
    const cpu = process.cpuUsage();
    const usage: Usage = { cpuUs: cpu.user + cpu.system, rss: process.memoryUsage().rss, at: performance.now(), lagMs: lag.max / 1e6 };
    lag.reset();
    process.stdout.write(`${JSON.stringify(usage)}\n`);
  });
}

/** The parent's handle on the child target. */
class Child {
  readonly #lines: AsyncIterator<string>;
  constructor(readonly proc: ChildProcess) {
    this.#lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  }
  async line(): Promise<string> {
    const next = await this.#lines.next();
    if (next.done) throw new Error('the target process ended');
    return next.value;
  }
  async usage(): Promise<Usage> {
    this.proc.stdin?.write('usage\n');
    return JSON.parse(await this.line()) as Usage;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function round(voice: VoiceClient, child: Child, calls: number, seconds: number) {
  const idle = await child.usage();
  const placed: VoiceCall[] = [];
  // Every caller sends on one shared 20 ms ticker, as the gateway does, instead of one timer each.
  const frames = toneLoop();
  const ticker = new Ticker(20);
  const stopTicks = ticker.add((n) => {
    const frame = frames[n % frames.length] as Buffer;
    for (const c of placed) c.sendFrame(frame);
  });
  // Ramp in small groups so negotiation (DTLS, key exchange) does not pile up in one instant.
  for (let i = 0; i < calls; i += 5) {
    const group = await Promise.all(Array.from({ length: Math.min(5, calls - i) }, () => voice.call({ offer: { mode: 'echo' }, decode: false })));
    await Promise.all(group.map((c) => c.connected(15_000)));
    placed.push(...group);
  }
  await sleep(1000); // settle: every call is sending and echoing
  await child.usage(); // resets the lag monitor: the window's lag is what follows
  const start = { usage: await child.usage(), sent: placed.map((c) => c.packetsOut), got: placed.map((c) => c.packetsIn) };
  await sleep(seconds * 1000);
  const end = await child.usage();
  const sentInWindow = placed.map((c, i) => c.packetsOut - (start.sent[i] ?? 0));
  stopTicks();
  ticker.close();
  await sleep(500); // let what is in flight come back
  const gotInWindow = placed.map((c, i) => c.packetsIn - (start.got[i] ?? 0));
  const sent = sentInWindow.reduce((a, b) => a + b, 0);
  const got = gotInWindow.reduce((a, b) => a + b, 0);
  const worst = Math.max(...placed.map((_, i) => 1 - (gotInWindow[i] ?? 0) / Math.max(1, sentInWindow[i] ?? 0)));
  const cpu = (end.cpuUs - start.usage.cpuUs) / 1000 / (end.at - start.usage.at);
  await voice.closeAll();
  await sleep(500);
  return {
    calls,
    sent,
    loss: Math.max(0, 1 - got / sent),
    worstCallLoss: Math.max(0, worst),
    targetCpu: cpu,
    cpuPerCall: cpu / calls,
    rssPerCallMb: (end.rss - idle.rss) / calls / 2 ** 20,
    sendRateHz: sent / calls / seconds,
    lagMs: end.lagMs,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { serve: { type: 'boolean' }, calls: { type: 'string' }, seconds: { type: 'string' } } });
  if (values.serve) return serve();
  const counts = (values.calls ?? '10,20,40,60').split(',').map(Number);
  const seconds = Number(values.seconds ?? '10');
  const proc = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const child = new Child(proc);
  try {
    const { profile, env } = JSON.parse(await child.line()) as { profile: Profile; env: Record<string, string> };
    const voice = new VoiceClient({ profile, path: undefined, secrets: resolveSecrets(profile, undefined, env) });
    // The target loads its media engine in the background: wait until it answers before measuring anything.
    for (let i = 0; ; i++) {
      const probe = await voice.call({ offer: { mode: 'echo' }, decode: false });
      await voice.closeAll();
      if (probe.answer) break;
      if (i === 5) throw new Error(`the target does not answer offers: ${probe.signaling.summary()}`);
    }
    const before = process.cpuUsage();
    const t0 = performance.now();
    console.log('calls  loss    worst-call  target-cpu  cpu/call  rss/call  pkts/s/call  max-loop-lag');
    for (const calls of counts) {
      const r = await round(voice, child, calls, seconds);
      console.log(
        `${String(r.calls).padStart(5)}  ${(r.loss * 100).toFixed(2).padStart(5)}%  ${(r.worstCallLoss * 100).toFixed(2).padStart(9)}%  ${(r.targetCpu * 100).toFixed(0).padStart(9)}%  ${(r.cpuPerCall * 100).toFixed(2).padStart(7)}%  ${r.rssPerCallMb.toFixed(2).padStart(6)} MB  ${r.sendRateHz.toFixed(1).padStart(10)}  ${r.lagMs.toFixed(0).padStart(9)} ms`,
      );
    }
    const mine = process.cpuUsage(before);
    console.log(`callers (this process): ${(((mine.user + mine.system) / 1000 / (performance.now() - t0)) * 100).toFixed(0)}% of a core on average`);
  } finally {
    proc.stdin?.write('quit\n');
  }
}

await main();
