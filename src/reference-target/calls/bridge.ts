import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BRIDGE_ENDED_REFERENCE_STATUS, BRIDGE_STATE_KEYS, BridgeEndedRequest, BridgeErrors } from '../../contract/bridge/shapes.js';
import type { TargetContext } from '../context.js';
import { sendError } from '../http.js';
import type { RecordsStore } from '../records/store.js';
import type { RetainedLog } from '../retention.js';
import { externalEventsKeyOk } from './external-events.js';

/** What a project's configured functions received from one bridge-ended notification. */
export interface FunctionInvocation {
  readonly conversation_id: string;
  readonly project_id: string;
  readonly bridge_duration_seconds: number;
  readonly call_duration_seconds: number;
  readonly at: string;
}

/** The body under the defect that lets call_duration_seconds be left out. */
const LaxBody = BridgeEndedRequest.partial({ call_duration_seconds: true });

function bridgeEnded(ctx: TargetContext, store: RecordsStore, invocations: RetainedLog<FunctionInvocation>) {
  return (req: FastifyRequest, reply: FastifyReply) => {
    if (!externalEventsKeyOk(ctx, req, reply, BridgeErrors)) return reply;
    const d = ctx.defects;
    const body = (d.has('bridge-call-duration-optional') ? LaxBody : BridgeEndedRequest).safeParse(req.body ?? {});
    if (!body.success) return sendError(reply, BridgeErrors.INVALID_BODY);
    const b = body.data;
    const found = store.find(b.conversation_id);
    if (!found) return sendError(reply, BridgeErrors.UNKNOWN_CONVERSATION);
    if (!found.project.settings.bridge) return sendError(reply, BridgeErrors.NOT_ENABLED);
    const durations = { bridge_duration_seconds: b.bridge_duration_seconds, call_duration_seconds: b.call_duration_seconds ?? 0 };
    if (!d.has('bridge-state-not-updated')) {
      store.setState(b.conversation_id, {
        [BRIDGE_STATE_KEYS.bridgeDuration]: durations.bridge_duration_seconds,
        [BRIDGE_STATE_KEYS.callDuration]: durations.call_duration_seconds,
      });
    }
    invocations.push({ conversation_id: b.conversation_id, project_id: found.project.projectId, ...durations, at: new Date(ctx.clock.now()).toISOString() });
    return reply.code(BRIDGE_ENDED_REFERENCE_STATUS).send();
  };
}

/** Registers POST /internal/v1/agentic-dial/bridge-ended on the runtime host. */
export function registerBridge(app: FastifyInstance, ctx: TargetContext, store: RecordsStore, invocations: RetainedLog<FunctionInvocation>): void {
  app.post('/internal/v1/agentic-dial/bridge-ended', bridgeEnded(ctx, store, invocations));
}
