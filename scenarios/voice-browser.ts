// voice-browser: browser voice calls in a real Chromium (k6/browser) through the gateway of document 1. Each iteration
// is one Chromium (k6 starts a fresh one per iteration) with a fake microphone: it opens dialtone's voice client page
// a few times in one context (served by the scenario itself through page.route, so the gateway needs to serve no page;
// k6 fetches each call's ice-servers, which a page on another origin could not read), and each page places its calls with the documented flow (ice-servers, a
// signaling socket, an offer with the voice auth token, trickled candidates) in the default end-to-end mode, whose agent greets
// the caller as soon as the call connects. The calls are held for a while, then hung up (close), and each is measured
// from the page: time to connected and to the agent's first audio, inbound samples and level from getStats().
//
// One Chromium holds at most 16 fake-microphone captures (MAX_CAPTURES_PER_BROWSER); each page takes one and gives its
// calls clones of the track, so calls are spread over pages (captures) and peer connections (clones), never past 16
// pages a browser, and over browsers through the VUs.
//
// The voice auth token reaches the page only as an argument of page.evaluate: it is in no URL (so in no browser
// metric's url tag), and the page never logs it or puts it into its results.

import { check } from 'k6';
import { browser, type Page } from 'k6/browser';
import exec from 'k6/execution';
import { Counter, Rate, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { VoicePaths } from '../src/contract/voice/wire.js';
import type { WorkloadName } from '../src/load/config.js';
import { loadConfig, secret } from '../src/load/vu/config.js';
import { type CallResult, fetchIceServers, hangUp, openClientPage, planCalls, startCalls, succeeded, waitForAgentAudio } from '../src/load/vu/voice-browser.js';

const cfg = loadConfig();
const webrtcUrl = cfg.target.hosts.webrtc_url;
if (!webrtcUrl) throw new Error('voice-browser needs hosts.webrtc_url in the target profile');
if (!cfg.voiceClientFile) throw new Error('voice-browser needs the voice client page: run it through dialtone load');
/** The voice client page, built by dialtone before the run and served to the scenario's own pages: no gateway serves it. */
const clientHtml = open(cfg.voiceClientFile);

/** Per load profile, what one browser does: calls placed at once, the pages (captures) they are spread over, the hold. */
const CALLS: Record<WorkloadName, { readonly calls: number; readonly pages: number; readonly holdMs: number }> = {
  smoke: { calls: 8, pages: 2, holdMs: 2_000 },
  nightly: { calls: 4, pages: 2, holdMs: 20_000 },
  capacity: { calls: 8, pages: 2, holdMs: 10_000 },
};
const shape = CALLS[cfg.profile];
/** Never more than 16 pages (captures) a browser: the rest of the calls go on cloned tracks. */
const plan = planCalls(shape.calls, shape.pages);

/** Bounds of each step of an iteration: page load, an offer's answer, the agent's first audio after the answers. */
const PAGE_LOAD_MS = 10_000;
const ANSWER_MS = 10_000;
const AGENT_AUDIO_MS = 10_000;

const timeToConnected = new Trend('voice_browser_time_to_connected', true);
const timeToFirstAudio = new Trend('voice_browser_time_to_first_agent_audio', true);
const offerToAnswer = new Trend('voice_browser_offer_to_answer', true);
const callSetup = new Trend('voice_browser_call_setup', true);
/** totalSamplesReceived of a call's inbound audio (getStats), read at hang-up, for every call that connected. */
const samplesReceived = new Trend('voice_browser_samples_received');
/** Share of those samples the decoder had to conceal (lost or late packets). */
const concealedShare = new Trend('voice_browser_concealed_share');
const samplesTotal = new Counter('voice_browser_samples');
const callSuccess = new Rate('voice_browser_call_success');
const calls = new Counter('voice_browser_calls');
const callErrors = new Counter('voice_browser_call_errors');

export const options: Options = {
  scenarios: { voice: { ...cfg.shape, options: { browser: { type: 'chromium' } } } },
  // The SLOs (scenarios/voice-browser.defaults.ts, with the profile's `slos`): a breach fails the run through k6's exit code (99).
  thresholds: cfg.thresholds,
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

/** One call's figures, each metric tagged by its operation. */
function record(r: CallResult): void {
  calls.add(1, { op: 'voice.call' });
  if (r.setupMs !== null) callSetup.add(r.setupMs, { op: 'voice.setup' });
  if (r.offerToAnswerMs !== null) offerToAnswer.add(r.offerToAnswerMs, { op: 'voice.offer' });
  if (r.timeToConnectedMs !== null) {
    timeToConnected.add(r.timeToConnectedMs, { op: 'voice.connect' });
    samplesReceived.add(r.inbound.totalSamplesReceived, { op: 'voice.inbound' });
    samplesTotal.add(r.inbound.totalSamplesReceived, { op: 'voice.inbound' });
    const total = r.inbound.totalSamplesReceived;
    if (total > 0) concealedShare.add(r.inbound.concealedSamples / total, { op: 'voice.inbound' });
  }
  if (r.timeToFirstAgentAudioMs !== null) timeToFirstAudio.add(r.timeToFirstAgentAudioMs, { op: 'voice.first_agent_audio' });
  if (r.error) callErrors.add(1, { op: 'voice.call', code: r.error.code });
  const ok = succeeded(r);
  callSuccess.add(ok, { op: 'voice.call' });
  check(r, {
    'the call connected': (c) => c.timeToConnectedMs !== null,
    'the agent was heard (inbound audioLevel above 0.01)': (c) => c.timeToFirstAgentAudioMs !== null && c.inbound.peakAudioLevel > 0.01,
    'inbound audio decoded (totalSamplesReceived > 0)': (c) => c.inbound.totalSamplesReceived > 0,
    'no error': (c) => c.error === null,
  });
}

/** Counts calls the iteration planned but could not read back (the browser or a page failed) as failed calls. */
function lost(n: number, why: string): void {
  for (let i = 0; i < n; i++) {
    calls.add(1, { op: 'voice.call' });
    callErrors.add(1, { op: 'voice.call', code: 'ITERATION' });
    callSuccess.add(false, { op: 'voice.call' });
  }
  console.warn(`voice-browser: ${n} calls lost: ${why}`);
}

export default async function voiceBrowser(): Promise<void> {
  const token = secret(cfg, 'voice_auth_token');
  const context = await browser.newContext();
  const pages: Page[] = [];
  let read = 0;
  try {
    for (let i = 0; i < plan.pages; i++) pages.push(await context.newPage());
    await Promise.all(pages.map((p) => openClientPage(p, clientHtml, PAGE_LOAD_MS)));
    const id = `vb-${exec.vu.idInTest}-${exec.vu.iterationInScenario}`;
    const gatewayUrl = webrtcUrl as string;
    // Each page fetches its calls' ice servers at once and places its calls as soon as it has them all.
    await Promise.all(
      pages.map(async (p, i) => {
        const n = plan.callsPerPage[i] ?? 1;
        const iceServersByCall = await Promise.all(Array.from({ length: n }, () => fetchIceServers(gatewayUrl, token, VoicePaths.iceServers)));
        return startCalls(p, { token, gatewayUrl, iceServersByCall, calls: n, answerTimeoutMs: ANSWER_MS, callSid: `${id}-p${i + 1}` });
      }),
    );
    await Promise.all(pages.map((p) => waitForAgentAudio(p, AGENT_AUDIO_MS)));
    await pages[0]?.waitForTimeout(shape.holdMs);
    for (const p of pages) {
      const results = await hangUp(p);
      read += results.length;
      for (const r of results) record(r);
    }
  } catch (e) {
    lost(shape.calls - read, String((e as Error).message ?? e).split('\n')[0] ?? '');
  } finally {
    for (const p of pages) await p.close().catch(() => {});
    await context.close().catch(() => {});
  }
}
