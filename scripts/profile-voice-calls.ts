// Where a voice-calls caller spends its CPU: N calls of the voice-calls flow (src/engine/modules/voice, as the engine
// runs them, without the engine around them) against a reference target in a process of its own, under Node's CPU
// profiler, then the profile's self time by what it is (Opus, SRTP and DTLS crypto, werift's RTP/ICE, the caller's own
// code, timers and I/O, GC). Run it alone:
//
//   node --cpu-prof --cpu-prof-dir=/tmp/voice-prof --import tsx scripts/profile-voice-calls.ts --calls 40 --seconds 30
//   node --import tsx scripts/profile-voice-calls.ts --summarize /tmp/voice-prof
import { setMaxListeners } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { placeCall } from '../src/engine/modules/voice/caller.js';
import { Pacer } from '../src/engine/modules/voice/pacer.js';
import { callerVoice, FRAME_MS } from '../src/engine/modules/voice/utterance.js';
import { spawnTarget } from '../src/fuzz/target-process.js';

/** A reference target in a process of its own, with the voice URL and token a caller needs. */
async function startTarget(dir: string): Promise<{ webrtcUrl: string; token: string; stop: () => Promise<void> }> {
  const t = await spawnTarget(join(dir, 'ref.json'), 30_000, [], ['--no-voice-client-page']);
  const p = JSON.parse(readFileSync(t.profilePath, 'utf8')) as { hosts: { webrtc_url: string } };
  const env = Object.fromEntries(
    readFileSync(join(dir, 'ref.env'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { webrtcUrl: p.hosts.webrtc_url, token: env.DIALTONE_REF_VOICE_AUTH_TOKEN ?? '', stop: t.stop };
}

/** Categories of a profile node, by the script it runs in or its name; the first that matches. */
const CATEGORIES: readonly [string, (url: string, name: string) => boolean][] = [
  ['opus (native decode)', (u, n) => u.includes('@evan/opus') || (/decode|encode/.test(n) && u === '')],
  ['srtp / srtcp', (u) => /werift.*(srtp|rtcp\/|cipher)/i.test(u)],
  ['dtls', (u) => /werift.*dtls/i.test(u)],
  ['ice / stun', (u) => /werift.*(ice|stun)/i.test(u)],
  ['rtp packets and werift media', (u) => /werift/.test(u)],
  ['node crypto', (u) => u.startsWith('node:crypto') || u.includes('internal/crypto')],
  ['udp sockets', (u) => u.includes('dgram')],
  ['timers', (u) => u.includes('timers')],
  ['the caller (src/engine/modules/voice)', (u) => u.includes('modules/voice')],
  ['garbage collection', (_u, n) => n === '(garbage collector)'],
  ['idle', (_u, n) => n === '(idle)' || n === '(program)'],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

function summarize(dir: string): void {
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.cpuprofile'))) {
    const prof = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    const self = new Map<number, number>();
    for (const [i, id] of prof.samples.entries()) self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0));
    const totals = new Map<string, number>();
    let all = 0;
    for (const [id, us] of self) {
      const n = byId.get(id);
      if (!n) continue;
      const cat = CATEGORIES.find(([, match]) => match(n.callFrame.url, n.callFrame.functionName))?.[0] ?? 'other';
      totals.set(cat, (totals.get(cat) ?? 0) + us);
      all += us;
    }
    const busy = all - (totals.get('idle') ?? 0);
    console.log(`${f}: ${(all / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s busy`);
    for (const [cat, us] of [...totals].sort((a, b) => b[1] - a[1]))
      if (cat !== 'idle') console.log(`  ${cat.padEnd(40)} ${((us / busy) * 100).toFixed(1).padStart(5)} % of busy`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { calls: { type: 'string' }, seconds: { type: 'string' }, summarize: { type: 'string' } } });
  if (values.summarize) return summarize(values.summarize);
  const calls = Number(values.calls ?? '20');
  const seconds = Number(values.seconds ?? '20');
  const target = await startTarget(mkdtempSync(join(tmpdir(), 'dialtone-voice-prof-')));
  const pacer = new Pacer(FRAME_MS);
  const voice = callerVoice();
  const signal = new AbortController().signal;
  // Every call here shares one signal (the engine gives each iteration its own): each wait listens on it for a while.
  setMaxListeners(0, signal);
  const signalingUrl = `${target.webrtcUrl.replace(/^http/, 'ws')}/api/v1/webrtc/signal`;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  try {
    const results = await Promise.all(
      // 100 ms apart, as the scenario ramps them in: all at once, DTLS handshakes starve each other.
      Array.from({ length: calls }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i * 100));
        return placeCall(
          {
            signalingUrl,
            offer: { authToken: target.token, callSid: `prof-${i}` },
            turns: Number.MAX_SAFE_INTEGER,
            untilMs: seconds * 1000,
            pauseMs: 500,
            holdMs: 0,
            connectTimeoutMs: 15_000,
            audioTimeoutMs: 10_000,
          },
          { tls: { insecure: false }, voice, pacer, signal },
        );
      }),
    );
    const cpu = process.cpuUsage(cpu0);
    const wall = (performance.now() - t0) / 1000;
    const ok = results.filter((r) => r.ok).length;
    for (const r of results) if (r.error) console.log(`a call failed at ${r.error.phase}: ${r.error.message}`);
    const turns = results.reduce((n, r) => n + r.turns.filter((t) => t.latencyMs !== null).length, 0);
    console.log(
      `${ok} of ${calls} calls ok, ${turns} turns answered in ${wall.toFixed(1)} s; caller CPU ${((cpu.user + cpu.system) / 1e6 / wall).toFixed(2)} cores`,
    );
  } finally {
    await target.stop();
  }
}

await main();
