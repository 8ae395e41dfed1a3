// Runs inside k6 VUs (k6/browser): drives the dialtone browser voice client page, window.dialtoneVoice. The functions
// handed to page.evaluate run in the page, so they use nothing from this bundle (k6 sends their source text).
import type { Page } from 'k6/browser';
import http from 'k6/http';

/**
 * Where the scenario serves the voice client page to its own browser pages (page.route fulfils it; nothing listens
 * there). A *.localhost origin is a secure context, so getUserMedia works; the page then talks to the gateway given in
 * start(), so a gateway that serves no page can be loaded.
 */
export const PAGE_URL = 'http://voice-client.dialtone.localhost/voice-client.html';

/**
 * Fake-microphone captures one Chromium holds at once: with 16 pages capturing, the 17th getUserMedia fails with "Could
 * not start audio source" (seen with Debian's Chromium 156; Chromium's audio manager caps input streams). A page takes
 * one capture and gives each of its calls a clone of the track (a clone is no new capture), so pages per browser stay
 * at or under this and calls go on clones.
 */
export const MAX_CAPTURES_PER_BROWSER = 16;

/** What the page reports per call: the fields of its VoiceResult (src/reference-target/voice/browser/voice-client.ts) read here. */
export interface CallResult {
  readonly index: number;
  readonly state: 'idle' | 'starting' | 'negotiating' | 'connected' | 'ended' | 'failed';
  readonly sessionId: string;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly setupMs: number | null;
  readonly offerToAnswerMs: number | null;
  readonly timeToConnectedMs: number | null;
  readonly timeToFirstAgentAudioMs: number | null;
  readonly inbound: {
    readonly packetsReceived: number;
    readonly packetsLost: number;
    readonly totalSamplesReceived: number;
    readonly concealedSamples: number;
    readonly audioLevel: number;
    readonly peakAudioLevel: number;
    readonly totalAudioEnergy: number;
    readonly jitter: number;
  };
}

/** What the page takes; the token is handed over with page.evaluate, so it is in no URL and no log. */
export interface StartCalls {
  readonly token: string;
  /** The gateway's base URL: the page opens its signaling socket there. */
  readonly gatewayUrl: string;
  /** One ice-servers answer per call, fetched by k6. */
  readonly iceServersByCall: unknown[][];
  readonly calls: number;
  readonly mode?: string;
  readonly answerTimeoutMs: number;
  readonly callSid: string;
}

interface PageApi {
  start(calls: StartCalls): Promise<CallResult[]>;
  stop(): Promise<CallResult[]>;
  readonly results: CallResult[];
}
// Only for the type checker: these names exist in the page, where the functions below run.
declare const window: { dialtoneVoice: PageApi };

/** How the calls of one browser are spread: `pages` captures, each carrying `callsPerPage` calls on cloned tracks. */
export interface CallPlan {
  readonly pages: number;
  readonly callsPerPage: readonly number[];
}

/**
 * Spreads `calls` over at most `pages` pages of one browser (never more than the capture limit, never more pages than
 * calls), as evenly as it goes: 10 calls on 4 pages are 3, 3, 2, 2.
 */
export function planCalls(calls: number, pages: number): CallPlan {
  const n = Math.max(1, Math.floor(calls));
  const p = Math.max(1, Math.min(Math.floor(pages), MAX_CAPTURES_PER_BROWSER, n));
  return { pages: p, callsPerPage: Array.from({ length: p }, (_, i) => Math.floor(n / p) + (i < n % p ? 1 : 0)) };
}

/** Opens the voice client page, served from the scenario's own copy (`html`, built by dialtone before the run). */
export async function openClientPage(page: Page, html: string, timeoutMs: number): Promise<void> {
  await page.route(PAGE_URL, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto(PAGE_URL, { timeout: timeoutMs });
}

/**
 * GET ice-servers with the voice auth token, from k6 rather than the page: a page on another origin than the gateway
 * could not read the answer (CORS). One fetch per call, as the documented flow does; the fetches of a page's calls may
 * run at once. Tagged by operation, not URL. Rejects when the answer is not a list of ice servers.
 */
export async function fetchIceServers(webrtcUrl: string, token: string, path: string): Promise<unknown[]> {
  const res = await http.asyncRequest('GET', `${webrtcUrl.replace(/\/+$/, '')}${path}`, null, {
    headers: { Authorization: `Bearer ${token}` },
    tags: { op: 'voice.ice_servers', name: 'voice.ice_servers' },
  });
  const servers = res.status === 200 ? (res.json('iceServers') as unknown) : undefined;
  if (!Array.isArray(servers)) throw new Error(`ice-servers answered ${res.status}`);
  return servers;
}

/** Places the calls in the page; resolves once every offer was answered or refused (failures are in the results). */
export async function startCalls(page: Page, calls: StartCalls): Promise<void> {
  await page.evaluate((opts: StartCalls) => window.dialtoneVoice.start(opts).then(() => true), calls);
}

/**
 * Waits until every call of the page either heard the agent or failed; false when `timeoutMs` ran out first (the calls
 * still waiting are counted as failed by the caller).
 */
export async function waitForAgentAudio(page: Page, timeoutMs: number): Promise<boolean> {
  try {
    await page.waitForFunction(
      () => window.dialtoneVoice.results.every((r) => r.state === 'failed' || r.state === 'ended' || r.timeToFirstAgentAudioMs !== null),
      { polling: 100, timeout: timeoutMs },
    );
    return true;
  } catch {
    return false;
  }
}

/** Hangs up every call of the page (each sends close) and returns their final results, stats read last. */
export async function hangUp(page: Page): Promise<CallResult[]> {
  return page.evaluate(() => window.dialtoneVoice.stop());
}

/** A call is a success when it connected, heard the agent, received decoded samples and met no error. */
export const succeeded = (r: CallResult) =>
  r.error === null && r.timeToConnectedMs !== null && r.timeToFirstAgentAudioMs !== null && r.inbound.totalSamplesReceived > 0;
