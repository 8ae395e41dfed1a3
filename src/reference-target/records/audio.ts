import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUDIO_CONTENT_TYPE, type AudioDirection, AudioErrors, AudioQuery, type AudioVariant, expectedAudio } from '../../contract/audio/shapes.js';
import type { TargetContext } from '../context.js';
import { sendError } from '../http.js';
import { authorise } from './auth.js';
import { segmentsOf, synthesize } from './recording.js';
import type { RecordsStore } from './store.js';
import { encodeWav } from './wav.js';

type Params = { version: string; account: string; project: string; conversationId: string };
type Query = Record<string, string | string[] | undefined>;

/** Handles GET /v3/{account_id}/{project_id}/conversations/{conversation_id}/audio. */
function audio(ctx: TargetContext, store: RecordsStore) {
  return (req: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
    if (req.params.version !== 'v3') return reply.callNotFound();
    const auth = authorise(store, req, reply, AudioErrors, req.params);
    if (!auth) return reply;
    const q = AudioQuery.safeParse(req.query);
    if (!q.success) {
      const issue = q.error.issues[0];
      return sendError(reply, AudioErrors.INVALID_PARAMETER, `${issue?.path.join('.') || 'query'}: ${issue?.message}`);
    }
    const found = store.find(req.params.conversationId);
    if (!found || found.project.key !== auth.project.key) return sendError(reply, AudioErrors.CONVERSATION_NOT_FOUND);
    const d = ctx.defects;
    // The redaction table: only a key with PII access that does not ask for redaction gets the raw recording.
    const variant: AudioVariant =
      !auth.grant.pii && !q.data.redacted && d.has('audio-redaction-not-enforced') ? 'raw' : expectedAudio(auth.grant.pii, q.data.redacted);
    const direction: AudioDirection = q.data.direction === 'agent' && d.has('audio-agent-gets-combined') ? 'combined' : q.data.direction;
    const wav = encodeWav(synthesize(segmentsOf(found.record), direction, variant));
    return reply.type(AUDIO_CONTENT_TYPE).send(wav);
  };
}

/** Registers the audio endpoint on the runtime host. */
export function registerAudio(app: FastifyInstance, ctx: TargetContext, store: RecordsStore): void {
  app.get('/:version/:account/:project/conversations/:conversationId/audio', audio(ctx, store));
}
