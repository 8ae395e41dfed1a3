// Plain values without zod, for k6 scenarios: a k6 bundle that imports zod makes every VU build all of it at start
// (about 750 KB of code a VU), which costs the generator CPU and memory per VU. shapes.ts re-exports them.

/** Document 3's credential header: "All endpoints use an API key in the `x-api-key` header." */
export const AlertsHeaders = {
  apiKey: 'x-api-key',
} as const;

/** The documented alert paths; `alertRule` (single rule) is the reference's choice, not shown. */
export const AlertsPaths = {
  alertRules: '/v1/alert-rules',
  alertRule: (id: string) => `/v1/alert-rules/${encodeURIComponent(id)}`,
  alerts: '/v1/alerts',
} as const;
