import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CALL_SID_PREFIX,
  isTerminalStatus,
  OUTBOUND_TRIGGER_REFERENCE_STATUS,
  OutboundErrors,
  OutboundHeaders,
  type OutboundStatusResponse,
  OutboundTriggerRequest,
} from '../../contract/outbound/shapes.js';
import type { TargetContext } from '../context.js';
import { sendError } from '../http.js';
import { withOp } from '../ops.js';
import { type CallOutcome, type CallTiming, callState, defaultOutcome, forgetRemoved, type OutboundCall, REFERENCE_TIMING } from './outbound.js';

/** What a case arranged for the next call to one destination (control surface). */
export interface CallScript {
  readonly outcome?: CallOutcome;
  readonly manual?: boolean;
}

/** The outbound calls of one target and the scripts cases set for their destinations. */
export interface OutboundState {
  readonly calls: Map<string, OutboundCall>;
  readonly scripts: Map<string, CallScript>;
  /** Triggers so far: every SWEEP_EVERY-th looks for calls whose status has been removed. */
  triggered: number;
}

/** A sweep walks every call, so it runs once per this many triggers (amortised, as messaging sessions are). */
const SWEEP_EVERY = 256;

const HOUR_MS = 60 * 60 * 1000;

/** The timing under the target's defects: a retention of one hour, or one that never ends. */
function timingOf(ctx: TargetContext): CallTiming {
  if (ctx.defects.has('outbound-status-expires-early')) return { ...REFERENCE_TIMING, retentionMs: HOUR_MS };
  if (ctx.defects.has('outbound-status-never-expires')) return { ...REFERENCE_TIMING, retentionMs: Number.POSITIVE_INFINITY };
  return REFERENCE_TIMING;
}

/** X-Service-Auth-Token, the token issued per project; any header case, as HTTP has it. */
function tokenOk(ctx: TargetContext, req: FastifyRequest, reply: FastifyReply): boolean {
  const token = req.headers[OutboundHeaders.serviceAuthToken.toLowerCase()];
  if (token === undefined) {
    sendError(reply, OutboundErrors.MISSING_TOKEN);
    return false;
  }
  if (token !== ctx.credentials.outbound_token) {
    sendError(reply, OutboundErrors.INVALID_TOKEN);
    return false;
  }
  return true;
}

/** A trigger body under the non-E.164 defect: any string destination. */
const LaxTrigger = OutboundTriggerRequest.extend({ to_number: z.string().min(1) });

function trigger(ctx: TargetContext, state: OutboundState) {
  return (req: FastifyRequest, reply: FastifyReply) => {
    if (!tokenOk(ctx, req, reply)) return reply;
    const schema = ctx.defects.has('outbound-non-e164-accepted') ? LaxTrigger : OutboundTriggerRequest;
    const body = schema.safeParse(req.body ?? {});
    if (!body.success) {
      const destinationBad = body.error.issues.some((i) => i.path[0] === 'to_number');
      return sendError(reply, destinationBad ? OutboundErrors.INVALID_DESTINATION : OutboundErrors.INVALID_BODY);
    }
    const b = body.data;
    const script = state.scripts.get(b.to_number);
    state.scripts.delete(b.to_number);
    const call: OutboundCall = {
      sid: `${CALL_SID_PREFIX}${ctx.rng.hex(24)}`,
      toNumber: b.to_number,
      fromNumber: b.from_number,
      metadata: b.metadata,
      encryption: b.encryption,
      createdAt: ctx.clock.now(),
      manual: script?.manual ?? false,
      advancedMs: 0,
      outcome: script?.outcome ?? defaultOutcome(b.to_number),
      terminalReads: 0,
    };
    state.calls.set(call.sid, call);
    if (++state.triggered % SWEEP_EVERY === 0) forgetRemoved(state.calls, call.createdAt, timingOf(ctx));
    return reply.code(OUTBOUND_TRIGGER_REFERENCE_STATUS).send({ call_sid: call.sid, status: 'queued' });
  };
}

function status(ctx: TargetContext, state: OutboundState) {
  return (req: FastifyRequest<{ Params: { sid: string } }>, reply: FastifyReply) => {
    if (!tokenOk(ctx, req, reply)) return reply;
    const call = state.calls.get(req.params.sid);
    if (!call) return sendError(reply, OutboundErrors.UNKNOWN_CALL);
    const now = ctx.clock.now();
    const s = callState(call, now, timingOf(ctx));
    if (!s) {
      state.calls.delete(call.sid);
      return sendError(reply, OutboundErrors.STATUS_EXPIRED);
    }
    let shown = s.status;
    if (isTerminalStatus(s.status)) {
      call.terminalReads++;
      // The regression defect: the second read after the end shows the call as still being placed.
      if (call.terminalReads === 2 && ctx.defects.has('outbound-success-regresses')) shown = 'calling';
    }
    const out: OutboundStatusResponse = { call_sid: call.sid, status: shown, updated_at: new Date(s.since).toISOString() };
    return reply.send(out);
  };
}

/** Registers outbound calling and status polling on the runtime host. */
export function registerOutbound(app: FastifyInstance, ctx: TargetContext, state: OutboundState): void {
  app.post('/v1/outbound-calling', withOp('outbound.trigger'), trigger(ctx, state));
  app.get('/v1/outbound-calling/:sid/status', withOp('outbound.status'), status(ctx, state));
}
