// The browser voice client: runs in a web page (compiled by esbuild into page.ts's HTML), never in Node.
// It places calls through the gateway and keeps what a load script wants on `window.dialtoneVoice.results`.
//
// One page takes the microphone once (one capture) and gives each of its calls a clone of that track, each on its own
// signaling socket and peer connection: Chromium holds only so many captures at once (16), clones are not captures.

/** Options of one start; `token` is the voice auth token. It is used for the offers and ice-servers, never kept. */
export interface StartOptions {
  readonly token: string;
  readonly mode?: string;
  /** `microphone` uses getUserMedia (a fake device under test); `tone` plays a generated sine instead. */
  readonly source?: 'microphone' | 'tone';
  readonly toneHz?: number;
  /** Fetch ice-servers first and hand them to the peer connection (the documented flow). Default true. */
  readonly useIceServers?: boolean;
  /**
   * The gateway's base URL (https://… or http://…) when the page is not served by the gateway itself: signaling then
   * goes to its wss:// (ws://) host. Absent: the page's own host.
   */
  readonly gatewayUrl?: string;
  /** ice-servers already fetched by the caller (a page on another origin than the gateway cannot read them: CORS). */
  readonly iceServers?: RTCIceServer[];
  /** The same, one fetched list per call (fresh TURN credentials each, as the documented flow fetches per call). */
  readonly iceServersByCall?: RTCIceServer[][];
  /** Calls placed at once, all sharing this page's one capture. Default 1. */
  readonly calls?: number;
  /** A call whose offer is neither answered nor refused this long after it was sent fails with TIMEOUT. Default 10 s. */
  readonly answerTimeoutMs?: number;
  /** callSid of the first call; the others get `-2`, `-3`, … appended. */
  readonly callSid?: string;
  readonly caller?: string;
  readonly callee?: string;
  readonly variantId?: string;
}

/** What the page reports per call; durations after `setupMs` run from the moment the offer was sent. */
export interface VoiceResult {
  index: number;
  state: 'idle' | 'starting' | 'negotiating' | 'connected' | 'ended' | 'failed';
  sessionId: string;
  /** The gateway's error message, or CLIENT / TIMEOUT / CONNECTION_FAILED / SOCKET_CLOSED from the page itself. */
  error: { code: string; message: string } | null;
  /** From start to the offer on the wire: capture, socket, ice-servers, createOffer. */
  setupMs: number | null;
  offerToAnswerMs: number | null;
  timeToConnectedMs: number | null;
  /** Inbound audioLevel above 0.01 for the first time (the agent's greeting). */
  timeToFirstAgentAudioMs: number | null;
  candidatesSent: number;
  candidatesReceived: number;
  inbound: {
    packetsReceived: number;
    packetsLost: number;
    totalSamplesReceived: number;
    concealedSamples: number;
    audioLevel: number;
    /** Highest audioLevel seen over the call. */
    peakAudioLevel: number;
    totalAudioEnergy: number;
    jitter: number;
  };
}

interface Config {
  readonly signalPath: string;
  readonly iceServersPath: string;
}

/** audioLevel (0..1) above this counts as the agent speaking; digital silence reports 0. */
const AUDIBLE_LEVEL = 0.01;
/** Stats are polled often until the first agent audio (its time is the figure), then less, to spare the page. */
const STATS_EVERY_MS = 50;
const STATS_AFTER_AUDIO_MS = 1000;
const MAX_CALLS_PER_PAGE = 32;

const config = JSON.parse(document.getElementById('dialtone-config')?.textContent ?? '{}') as Config;

const fresh = (index: number): VoiceResult => ({
  index,
  state: 'idle',
  sessionId: '',
  error: null,
  setupMs: null,
  offerToAnswerMs: null,
  timeToConnectedMs: null,
  timeToFirstAgentAudioMs: null,
  candidatesSent: 0,
  candidatesReceived: 0,
  inbound: {
    packetsReceived: 0,
    packetsLost: 0,
    totalSamplesReceived: 0,
    concealedSamples: 0,
    audioLevel: 0,
    peakAudioLevel: 0,
    totalAudioEnergy: 0,
    jitter: 0,
  },
});

let calls: Call[] = [];
let capture: MediaStream | undefined;

function show(): void {
  const out = document.getElementById('result');
  if (out) out.textContent = JSON.stringify(calls.length === 1 ? calls[0]?.result : calls.map((c) => c.result), null, 2);
}

/** The page's one capture: the (fake) microphone, or a generated tone. */
async function localAudio(o: StartOptions): Promise<MediaStream> {
  if ((o.source ?? 'microphone') === 'microphone') return navigator.mediaDevices.getUserMedia({ audio: true });
  const audio = new AudioContext({ sampleRate: 48000 });
  // Autoplay policy: before any user activation the context stays suspended and its track carries nothing, so no RTP
  // goes out at all. A load script's page.evaluate counts as activation; a person opening the page clicks once.
  if (audio.state !== 'running') await Promise.race([audio.resume(), new Promise((r) => setTimeout(r, 300))]);
  if (audio.state !== 'running') {
    const out = document.getElementById('result');
    if (out) out.textContent = 'Click the page to start the tone (the browser allows audio only after a click).';
    await new Promise<void>((resolve) => document.addEventListener('click', () => void audio.resume().then(() => resolve()), { once: true }));
  }
  const osc = audio.createOscillator();
  osc.frequency.value = o.toneHz ?? 660;
  const dest = audio.createMediaStreamDestination();
  osc.connect(dest);
  osc.start();
  return dest.stream;
}

async function iceServers(o: StartOptions, index: number): Promise<RTCIceServer[]> {
  if (o.useIceServers === false) return [];
  const given = o.iceServersByCall?.[index] ?? o.iceServers;
  if (given) return given;
  const res = await fetch(new URL(config.iceServersPath, o.gatewayUrl ?? location.href), {
    headers: { Authorization: `Bearer ${o.token}` },
    cache: 'no-store',
  });
  if (!res.ok) throw new Error(`ice-servers answered ${res.status}`);
  return ((await res.json()) as { iceServers: RTCIceServer[] }).iceServers;
}

/** The signaling URL: the gateway's host (or the page's own) with ws(s) and the documented path. */
function signalUrl(o: StartOptions): string {
  const base = new URL(o.gatewayUrl ?? location.href);
  return `${base.protocol === 'https:' ? 'wss' : 'ws'}://${base.host}${config.signalPath}`;
}

function openSocket(o: StartOptions): Promise<WebSocket> {
  const url = signalUrl(o);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error(`cannot open ${url}`));
  });
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** One call: its own signaling socket, peer connection (with a clone of the page's capture) and player. */
class Call {
  readonly result: VoiceResult;
  #ws: WebSocket | undefined;
  #pc: RTCPeerConnection | undefined;
  #track: MediaStreamTrack | undefined;
  #player: HTMLAudioElement | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #sentAt = 0;
  #done = false;

  constructor(index: number) {
    this.result = fresh(index);
  }

  #fail(code: string, message: string): void {
    this.result.error ??= { code, message };
    this.result.state = 'failed';
    show();
  }

  /** Resolves once the offer was answered, or the call failed (never rejects: the failure is in `result`). */
  async start(settings: StartOptions, stream: Promise<MediaStream>, startedAt: number): Promise<void> {
    const r = this.result;
    r.state = 'starting';
    try {
      const [ws, servers, local] = await Promise.all([openSocket(settings), iceServers(settings, r.index), stream]);
      this.#ws = ws;
      if (this.#done) return ws.close();
      const pc = new RTCPeerConnection({ iceServers: servers });
      this.#pc = pc;
      const player = document.createElement('audio');
      player.autoplay = true;
      document.getElementById('players')?.append(player);
      this.#player = player;
      // A remote track only counts samples once something plays it.
      pc.ontrack = (e) => {
        player.srcObject = e.streams[0] ?? new MediaStream([e.track]);
        void player.play().catch(() => {});
      };
      const source = local.getAudioTracks()[0];
      if (!source) throw new Error('the capture has no audio track');
      this.#track = source.clone();
      pc.addTransceiver(this.#track, { direction: 'sendrecv', streams: [new MediaStream([this.#track])] });
      const early: RTCIceCandidateInit[] = [];
      const sendCandidate = (c: RTCIceCandidateInit) => {
        r.candidatesSent++;
        ws.send(JSON.stringify({ type: 'ice-candidate', sessionId: r.sessionId, data: c }));
      };
      pc.onicecandidate = (e) => {
        const c = e.candidate ? e.candidate.toJSON() : { candidate: '', sdpMid: null, sdpMLineIndex: null };
        if (r.sessionId) sendCandidate(c);
        else early.push(c);
      };
      pc.onconnectionstatechange = () => {
        if (pc.connectionState === 'connected' && r.timeToConnectedMs === null) {
          r.timeToConnectedMs = performance.now() - this.#sentAt;
          if (r.state !== 'failed') r.state = 'connected';
        }
        if (pc.connectionState === 'failed') this.#fail('CONNECTION_FAILED', 'peer connection failed');
        show();
      };
      const answered = new Promise<void>((resolve) => {
        const timeout = setTimeout(() => {
          this.#fail('TIMEOUT', `no answer within ${settings.answerTimeoutMs ?? 10_000} ms`);
          resolve();
        }, settings.answerTimeoutMs ?? 10_000);
        const settle = () => {
          clearTimeout(timeout);
          resolve();
        };
        ws.onclose = () => {
          if (!this.#done) this.#fail('SOCKET_CLOSED', 'the signaling socket closed during the call');
          settle();
        };
        ws.onmessage = (e) => {
          const m = JSON.parse(String(e.data)) as { type: string; sessionId: string; data?: Record<string, unknown> };
          if (m.type === 'answer') {
            r.offerToAnswerMs = performance.now() - this.#sentAt;
            r.sessionId = m.sessionId;
            pc.setRemoteDescription(m.data as unknown as RTCSessionDescriptionInit).then(
              () => {
                for (const c of early.splice(0)) sendCandidate(c);
                settle();
              },
              (err: unknown) => {
                this.#fail('CLIENT', `setRemoteDescription: ${errorText(err)}`);
                settle();
              },
            );
          } else if (m.type === 'ice-candidate') {
            r.candidatesReceived++;
            void pc.addIceCandidate(m.data as RTCIceCandidateInit).catch(() => {});
          } else if (m.type === 'error') {
            const d = m.data as { code?: unknown; message?: unknown } | undefined;
            this.#fail(String(d?.code ?? 'ERROR'), String(d?.message ?? ''));
            settle();
          }
          show();
        };
      });
      const offer = await pc.createOffer();
      await pc.setLocalDescription(offer);
      if (this.#done) return;
      r.state = 'negotiating';
      this.#sentAt = performance.now();
      r.setupMs = this.#sentAt - startedAt;
      const callSid = settings.callSid && r.index > 0 ? `${settings.callSid}-${r.index + 1}` : settings.callSid;
      ws.send(
        JSON.stringify({
          type: 'offer',
          sessionId: '',
          authToken: settings.token,
          data: { type: 'offer', sdp: offer.sdp },
          ...(settings.mode ? { mode: settings.mode } : {}),
          ...(callSid ? { callSid } : {}),
          ...(settings.caller ? { caller: settings.caller } : {}),
          ...(settings.callee ? { callee: settings.callee } : {}),
          ...(settings.variantId ? { variantId: settings.variantId } : {}),
        }),
      );
      this.#poll();
      await answered;
    } catch (e) {
      this.#fail('CLIENT', errorText(e));
    }
  }

  #poll(): void {
    this.#timer = setTimeout(
      () => {
        const pc = this.#pc;
        if (!pc || this.#done) return;
        pc.getStats().then(
          (stats) => {
            this.#read(stats);
            this.#poll();
          },
          () => this.#poll(),
        );
      },
      this.result.timeToFirstAgentAudioMs === null ? STATS_EVERY_MS : STATS_AFTER_AUDIO_MS,
    );
  }

  #read(stats: RTCStatsReport): void {
    const r = this.result;
    stats.forEach((s: Record<string, unknown>) => {
      if (s.type !== 'inbound-rtp' || s.kind !== 'audio') return;
      const n = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : 0);
      r.inbound = {
        packetsReceived: n('packetsReceived'),
        packetsLost: n('packetsLost'),
        totalSamplesReceived: n('totalSamplesReceived'),
        concealedSamples: n('concealedSamples'),
        audioLevel: n('audioLevel'),
        peakAudioLevel: Math.max(r.inbound.peakAudioLevel, n('audioLevel')),
        totalAudioEnergy: n('totalAudioEnergy'),
        jitter: n('jitter'),
      };
      if (r.timeToFirstAgentAudioMs === null && r.inbound.audioLevel > AUDIBLE_LEVEL) r.timeToFirstAgentAudioMs = performance.now() - this.#sentAt;
    });
    show();
  }

  /** Reads the stats a last time, sends close, and lets go of everything the call holds. */
  async hangUp(): Promise<void> {
    if (this.#done) return;
    const pc = this.#pc;
    if (pc && pc.connectionState !== 'closed')
      await pc.getStats().then(
        (s) => this.#read(s),
        () => {},
      );
    this.#done = true;
    clearTimeout(this.#timer);
    const ws = this.#ws;
    if (ws?.readyState === WebSocket.OPEN && this.result.sessionId) ws.send(JSON.stringify({ type: 'close', sessionId: this.result.sessionId }));
    ws?.close();
    pc?.close();
    this.#track?.stop();
    if (this.#player) {
      this.#player.srcObject = null;
      this.#player.remove();
    }
    if (this.result.state !== 'failed') this.result.state = 'ended';
  }
}

/**
 * Places `o.calls` calls (default 1) at once, all on one capture. Resolves with their results once every offer was
 * answered or refused; the calls then run until `stop()`. Never rejects: a failed call has `state: 'failed'` and `error`.
 */
async function start(o: StartOptions): Promise<VoiceResult[]> {
  await stop();
  const n = Math.min(MAX_CALLS_PER_PAGE, Math.max(1, Math.floor(o.calls ?? 1)));
  const startedAt = performance.now();
  const stream = localAudio(o);
  stream.then(
    (s) => {
      capture = s;
    },
    () => {},
  );
  calls = Array.from({ length: n }, (_, i) => new Call(i));
  show();
  await Promise.all(calls.map((c) => c.start(o, stream, startedAt)));
  return calls.map((c) => c.result);
}

/** Ends every call (each sends close), releases the capture, and returns the final results. */
async function stop(): Promise<VoiceResult[]> {
  await Promise.all(calls.map((c) => c.hangUp()));
  for (const t of capture?.getTracks() ?? []) t.stop();
  capture = undefined;
  show();
  return calls.map((c) => c.result);
}

declare global {
  interface Window {
    dialtoneVoice: {
      start: typeof start;
      stop: typeof stop;
      /** The first call's result. */
      readonly result: VoiceResult | undefined;
      readonly results: VoiceResult[];
    };
  }
}

window.dialtoneVoice = {
  start,
  stop,
  get result() {
    return calls[0]?.result;
  },
  get results() {
    return calls.map((c) => c.result);
  },
};

// For a person at a browser: #token=…&mode=echo&source=tone&calls=2 starts calls on load (a fragment is never sent to
// a server). Load scripts hand the token over with page.evaluate instead, so it stays out of URLs and their logs.
const hash = new URLSearchParams(location.hash.slice(1));
const token = hash.get('token');
if (token) {
  history.replaceState(null, '', location.pathname);
  void start({
    token,
    mode: hash.get('mode') ?? undefined,
    source: hash.get('source') === 'tone' ? 'tone' : 'microphone',
    useIceServers: hash.get('ice') !== '0',
    calls: Number(hash.get('calls') ?? 1),
  });
}
