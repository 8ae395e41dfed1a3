// Plain values without zod, for k6 scenarios: a k6 bundle that imports zod makes every VU build all of it at start
// (about 750 KB of code a VU), which costs the generator CPU and memory per VU. chat.ts re-exports them.

/**
 * Chat credential header names, exactly as documented: the document says they are case-sensitive.
 */
export const ChatHeaders = {
  apiKey: 'X-API-KEY',
  token: 'X-TOKEN',
} as const;
