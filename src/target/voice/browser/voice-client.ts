// The browser voice client: runs in a web page (compiled by esbuild when the target serves it), never in Node.
// It places one call through the gateway and keeps what a load script wants on `window.dialtoneVoice.result`.

/** Options of one call; `token` is the voice auth token. */
export interface StartOptions {
  readonly token: string;
  readonly mode?: string;
  /** `microphone` uses getUserMedia (a fake device under test); `tone` plays a generated sine instead. */
  readonly source?: 'microphone' | 'tone';
  readonly toneHz?: number;
  /** Fetch ice-servers first and hand them to the peer connection (the documented flow). Default true. */
  readonly useIceServers?: boolean;
  readonly callSid?: string;
  readonly caller?: string;
  readonly callee?: string;
  readonly variantId?: string;
}

/** What the page reports, all durations from the moment the offer was sent. */
export interface VoiceResult {
  state: 'idle' | 'starting' | 'negotiating' | 'connected' | 'ended' | 'failed';
  sessionId: string;
  error: { code: string; message: string } | null;
  offerToAnswerMs: number | null;
  timeToConnectedMs: number | null;
  timeToFirstAgentAudioMs: number | null;
  candidatesSent: number;
  candidatesReceived: number;
  inbound: {
    packetsReceived: number;
    packetsLost: number;
    totalSamplesReceived: number;
    audioLevel: number;
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
const STATS_EVERY_MS = 50;

const config = JSON.parse(document.getElementById('dialtone-config')?.textContent ?? '{}') as Config;

const fresh = (): VoiceResult => ({
  state: 'idle',
  sessionId: '',
  error: null,
  offerToAnswerMs: null,
  timeToConnectedMs: null,
  timeToFirstAgentAudioMs: null,
  candidatesSent: 0,
  candidatesReceived: 0,
  inbound: { packetsReceived: 0, packetsLost: 0, totalSamplesReceived: 0, audioLevel: 0, totalAudioEnergy: 0, jitter: 0 },
});

let result = fresh();
let hangUp: (() => void) | undefined;

function show(): void {
  const out = document.getElementById('result');
  if (out) out.textContent = JSON.stringify(result, null, 2);
}

async function localAudio(o: StartOptions): Promise<MediaStream> {
  if ((o.source ?? 'microphone') === 'microphone') return navigator.mediaDevices.getUserMedia({ audio: true });
  const audio = new AudioContext({ sampleRate: 48000 });
  const osc = audio.createOscillator();
  osc.frequency.value = o.toneHz ?? 660;
  const dest = audio.createMediaStreamDestination();
  osc.connect(dest);
  osc.start();
  return dest.stream;
}

async function iceServers(o: StartOptions): Promise<RTCIceServer[]> {
  if (o.useIceServers === false) return [];
  const res = await fetch(config.iceServersPath, { headers: { Authorization: `Bearer ${o.token}` } });
  if (!res.ok) throw new Error(`ice-servers answered ${res.status}`);
  return ((await res.json()) as { iceServers: RTCIceServer[] }).iceServers;
}

function openSocket(): Promise<WebSocket> {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${config.signalPath}`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error(`cannot open ${url}`));
  });
}

async function pollStats(pc: RTCPeerConnection, sentAt: number): Promise<void> {
  const stats = await pc.getStats();
  stats.forEach((s: Record<string, unknown>) => {
    if (s.type !== 'inbound-rtp' || s.kind !== 'audio') return;
    const n = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : 0);
    result.inbound = {
      packetsReceived: n('packetsReceived'),
      packetsLost: n('packetsLost'),
      totalSamplesReceived: n('totalSamplesReceived'),
      audioLevel: n('audioLevel'),
      totalAudioEnergy: n('totalAudioEnergy'),
      jitter: n('jitter'),
    };
    if (result.timeToFirstAgentAudioMs === null && result.inbound.audioLevel > AUDIBLE_LEVEL) result.timeToFirstAgentAudioMs = performance.now() - sentAt;
  });
  show();
}

/** Places one call. Resolves when the offer was answered; the call runs until `stop()`. */
async function start(o: StartOptions): Promise<VoiceResult> {
  await stop();
  result = { ...fresh(), state: 'starting' };
  const [ws, servers, stream] = await Promise.all([openSocket(), iceServers(o), localAudio(o)]);
  const pc = new RTCPeerConnection({ iceServers: servers });
  const player = document.getElementById('remote') as HTMLAudioElement;
  // A remote track only counts samples once something plays it.
  pc.ontrack = (e) => {
    player.srcObject = e.streams[0] ?? new MediaStream([e.track]);
    void player.play().catch(() => {});
  };
  for (const track of stream.getAudioTracks()) pc.addTransceiver(track, { direction: 'sendrecv', streams: [stream] });
  const early: RTCIceCandidateInit[] = [];
  const sendCandidate = (c: RTCIceCandidateInit) => {
    result.candidatesSent++;
    ws.send(JSON.stringify({ type: 'ice-candidate', sessionId: result.sessionId, data: c }));
  };
  pc.onicecandidate = (e) => {
    const c = e.candidate ? e.candidate.toJSON() : { candidate: '', sdpMid: null, sdpMLineIndex: null };
    if (result.sessionId) sendCandidate(c);
    else early.push(c);
  };
  let sentAt = 0;
  pc.onconnectionstatechange = () => {
    if (pc.connectionState === 'connected' && result.timeToConnectedMs === null) {
      result.timeToConnectedMs = performance.now() - sentAt;
      result.state = 'connected';
    }
    if (pc.connectionState === 'failed') result.state = 'failed';
    show();
  };
  const answered = new Promise<void>((resolve, reject) => {
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as { type: string; sessionId: string; data?: Record<string, unknown> };
      if (m.type === 'answer') {
        result.offerToAnswerMs = performance.now() - sentAt;
        result.sessionId = m.sessionId;
        void pc.setRemoteDescription(m.data as unknown as RTCSessionDescriptionInit).then(() => {
          for (const c of early.splice(0)) sendCandidate(c);
          resolve();
        }, reject);
      } else if (m.type === 'ice-candidate') {
        result.candidatesReceived++;
        void pc.addIceCandidate(m.data as RTCIceCandidateInit).catch(() => {});
      } else if (m.type === 'error') {
        result.error = m.data as VoiceResult['error'];
        result.state = 'failed';
        reject(new Error(`${result.error?.code}: ${result.error?.message}`));
      }
      show();
    };
  });
  const offer = await pc.createOffer();
  await pc.setLocalDescription(offer);
  result.state = 'negotiating';
  sentAt = performance.now();
  ws.send(
    JSON.stringify({
      type: 'offer',
      sessionId: '',
      authToken: o.token,
      data: { type: 'offer', sdp: offer.sdp },
      ...(o.mode ? { mode: o.mode } : {}),
      ...(o.callSid ? { callSid: o.callSid } : {}),
      ...(o.caller ? { caller: o.caller } : {}),
      ...(o.callee ? { callee: o.callee } : {}),
      ...(o.variantId ? { variantId: o.variantId } : {}),
    }),
  );
  const timer = setInterval(() => void pollStats(pc, sentAt), STATS_EVERY_MS);
  hangUp = () => {
    clearInterval(timer);
    if (ws.readyState === WebSocket.OPEN && result.sessionId) ws.send(JSON.stringify({ type: 'close', sessionId: result.sessionId }));
    ws.close();
    pc.close();
    for (const t of stream.getTracks()) t.stop();
    if (result.state !== 'failed') result.state = 'ended';
    show();
  };
  await answered;
  return result;
}

/** Ends the call (sends close) and returns the final result. */
async function stop(): Promise<VoiceResult> {
  hangUp?.();
  hangUp = undefined;
  return result;
}

declare global {
  interface Window {
    dialtoneVoice: { start: typeof start; stop: typeof stop; readonly result: VoiceResult };
  }
}

window.dialtoneVoice = {
  start,
  stop,
  get result() {
    return result;
  },
};

// #token=…&mode=echo&source=tone starts a call on load (the token stays in the fragment: never sent to a server).
const hash = new URLSearchParams(location.hash.slice(1));
const token = hash.get('token');
if (token) {
  void start({
    token,
    mode: hash.get('mode') ?? undefined,
    source: hash.get('source') === 'tone' ? 'tone' : 'microphone',
    useIceServers: hash.get('ice') !== '0',
  }).catch((e: Error) => {
    result.state = 'failed';
    result.error ??= { code: 'CLIENT', message: e.message };
    show();
  });
}
