import { z } from 'zod';

/** Client environments (documents 1 and 2) and deployment environments (document 3). */
export const ClientEnv = z.enum(['sandbox', 'pre-release', 'live']);
export type ClientEnv = z.infer<typeof ClientEnv>;

/** Regions of the runtime host (`{base_url}`) and clusters of the messaging host. */
export const RuntimeRegion = z.enum(['us-1', 'uk-1', 'euw-1']);
export type RuntimeRegion = z.infer<typeof RuntimeRegion>;

/** Regions of the agents host (`{agents_url}`), document 3. */
export const AgentsRegion = z.enum(['us', 'uk', 'eu']);
export type AgentsRegion = z.infer<typeof AgentsRegion>;

/** An ISO 8601 timestamp with a zone, as the documents use everywhere. */
export const IsoDateTime = z.iso.datetime({ offset: true });
