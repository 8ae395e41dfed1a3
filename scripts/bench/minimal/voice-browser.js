// Minimal voice-browser: one Chromium per iteration opens the voice client page twice, places 4 calls on each, waits
// for the agent's audio, holds the calls and hangs up. BENCH_VUS browsers at once for BENCH_DURATION.
import { browser } from 'k6/browser';
import { Counter } from 'k6/metrics';
import { profile, secret } from './common.js';

export const options = {
  scenarios: {
    voice: {
      executor: 'constant-vus',
      vus: Number(__ENV.BENCH_VUS),
      duration: __ENV.BENCH_DURATION,
      gracefulStop: '20s',
      options: { browser: { type: 'chromium' } },
    },
  },
};
const connected = new Counter('calls_connected');
const url = `${profile.hosts.webrtc_url}/dialtone/voice-client.html`;

export default async function () {
  const context = await browser.newContext();
  const pages = [await context.newPage(), await context.newPage()];
  try {
    await Promise.all(pages.map((p) => p.goto(url)));
    const token = secret('voice_auth_token');
    await Promise.all(
      pages.map((p, i) =>
        p.evaluate((o) => window.dialtoneVoice.start(o).then(() => true), { token, calls: 4, answerTimeoutMs: 10000, callSid: `m-${__VU}-${i}` }),
      ),
    );
    await Promise.all(
      pages.map((p) =>
        p.waitForFunction(() => window.dialtoneVoice.results.every((r) => r.state === 'failed' || r.timeToFirstAgentAudioMs !== null), {
          polling: 100,
          timeout: 10000,
        }),
      ),
    );
    await pages[0].waitForTimeout(2000);
    for (const p of pages) {
      const results = await p.evaluate(() => window.dialtoneVoice.stop());
      connected.add(results.filter((r) => r.timeToConnectedMs !== null && r.inbound.totalSamplesReceived > 0).length);
    }
  } finally {
    for (const p of pages) await p.close();
    await context.close();
  }
}
