import type { FastifyInstance } from 'fastify';
import type { TargetContext } from '../context.js';
import { isRecord } from '../http.js';
import type { RecordsStore } from '../records/store.js';
import { RetainedLog } from '../retention.js';
import type { FunctionInvocation } from './bridge.js';
import type { EventBinding } from './external-events.js';
import { callState, elapsedOf } from './outbound.js';
import type { OutboundState } from './outbound-routes.js';

/** The state the control surface reaches into. */
export interface CallsState {
  readonly outbound: OutboundState;
  readonly bindings: Map<string, EventBinding>;
  /** What the project's functions received, within the retention. */
  readonly invocations: RetainedLog<FunctionInvocation>;
}

const bad = (message: string) => ({ error_message: message });

/**
 * Test-only endpoints under `/outbound/…`, `/external-events/…` and `/bridge/…` of the control
 * surface: script the next call to a destination (its outcome, and whether its time moves only when
 * a case advances it), age one call without touching the shared clock, bind an event id to a
 * conversation (optionally failing its next deliveries with 500), and read what was stored.
 */
export function registerCallsControl(app: FastifyInstance, ctx: TargetContext, store: RecordsStore, state: CallsState): void {
  app.put<{ Params: { number: string } }>('/outbound/destinations/:number', async (req, reply) => {
    const b = isRecord(req.body) ? req.body : {};
    const outcome = b.outcome;
    if (outcome !== undefined && outcome !== 'success' && outcome !== 'failure') return reply.code(400).send(bad('outcome must be success or failure'));
    if (b.manual !== undefined && typeof b.manual !== 'boolean') return reply.code(400).send(bad('manual must be a boolean'));
    state.outbound.scripts.set(req.params.number, { ...(outcome ? { outcome } : {}), ...(b.manual !== undefined ? { manual: b.manual as boolean } : {}) });
    return { to_number: req.params.number, outcome: outcome ?? null, manual: b.manual ?? false };
  });

  const view = (sid: string) => {
    const call = state.outbound.calls.get(sid);
    if (!call) return undefined;
    const now = ctx.clock.now();
    return {
      call_sid: sid,
      to_number: call.toNumber,
      outcome: call.outcome,
      manual: call.manual,
      elapsed_ms: elapsedOf(call, now),
      status: callState(call, now)?.status ?? null,
    };
  };
  app.get<{ Params: { sid: string } }>('/outbound/calls/:sid', async (req, reply) => view(req.params.sid) ?? reply.code(404).send(bad('no such call')));
  app.post<{ Params: { sid: string } }>('/outbound/calls/:sid/advance', async (req, reply) => {
    const call = state.outbound.calls.get(req.params.sid);
    if (!call) return reply.code(404).send(bad('no such call'));
    const ms = isRecord(req.body) ? req.body.ms : undefined;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return reply.code(400).send(bad('ms must be a non-negative number'));
    call.advancedMs += ms;
    return view(call.sid);
  });

  app.post('/external-events/bindings', async (req, reply) => {
    const b = isRecord(req.body) ? req.body : {};
    if (typeof b.event_id !== 'string' || b.event_id === '' || typeof b.conversation_id !== 'string') {
      return reply.code(400).send(bad('event_id and conversation_id are required strings'));
    }
    const failures = b.transient_failures ?? 0;
    if (typeof failures !== 'number' || !Number.isInteger(failures) || failures < 0)
      return reply.code(400).send(bad('transient_failures must be a non-negative integer'));
    const found = store.find(b.conversation_id);
    if (!found) return reply.code(404).send(bad('no such conversation'));
    state.bindings.set(b.event_id, {
      conversationId: b.conversation_id,
      projectKey: found.project.key,
      transientFailures: failures,
      events: new RetainedLog(ctx.retention, ctx.clock),
    });
    return reply.code(201).send({ event_id: b.event_id, conversation_id: b.conversation_id, project_id: found.project.projectId });
  });
  app.get<{ Params: { eventId: string } }>('/external-events/events/:eventId', async (req, reply) => {
    const binding = state.bindings.get(req.params.eventId);
    if (!binding) return reply.code(404).send(bad('no such event id'));
    return { event_id: req.params.eventId, conversation_id: binding.conversationId, events: binding.events.values() };
  });

  app.get<{ Querystring: { conversation_id?: string } }>('/bridge/invocations', async (req) => ({
    invocations: state.invocations.values().filter((i) => req.query.conversation_id === undefined || i.conversation_id === req.query.conversation_id),
  }));
}
