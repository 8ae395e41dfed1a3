// Plain values without zod, for k6 scenarios: a k6 bundle that imports zod makes every VU build all of it at start
// (about 750 KB of code a VU), which costs the generator CPU and memory per VU. conversations.ts re-exports them.

/** Conversations (v3) credential header, exactly as the Authentication table writes it. */
export const ConversationsHeaders = {
  apiKey: 'x-api-key',
} as const;
