import { credentials, type SurfaceAudit } from '../audit.js';
import { ChatOperation } from './shapes.js';

/** Where each chat behaviour that crosses operations is shown (see `src/contract/audit.ts`). */
export const ChatAudit = {
  credentials: credentials(['chat.auth.headers-required', 'chat.auth.invalid-credentials'], ChatOperation.options),
  fields: [],
  events: [],
} satisfies SurfaceAudit;
