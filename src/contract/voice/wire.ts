// Plain values without zod, for k6 scenarios: a k6 bundle that imports zod makes every VU build all of it at start.
// voice.ts re-exports them.

/** Paths on the gateway host (document 1). */
export const VoicePaths = {
  iceServers: '/api/v1/ice-servers',
  signal: '/api/v1/webrtc/signal',
} as const;
