import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ChatChannel,
  ChatCloseRequest,
  type ChatCloseResponse,
  ChatCreateRequest,
  type ChatCreateResponse,
  ChatErrors,
  ChatOperation,
  ChatRespondRequest,
  type ChatRespondResponse,
} from '../../contract/chat/shapes.js';
import { checkBody } from '../checked-body.js';
import type { TargetContext } from '../context.js';
import { isRecord, sendError } from '../http.js';
import { drawnDelayMs } from '../latency.js';
import { CHAT_LOAD_DEFECT_PER_SECOND, loadMeter } from '../load-meter.js';
import type { Op } from '../ops.js';
import type { SurfaceModule } from '../surface.js';
import { matchTenant } from '../tenancy.js';
import { agentTurn, GREETING } from './agent.js';

type Params = { version: string; account: string; project: string; op: string };
type Handler = (ctx: TargetContext, body: Record<string, unknown> | undefined, reply: FastifyReply) => unknown;

/** What an INVALID_FIELD error names after its text: the field, or for channel the values it may take. */
const fieldDetail = (field: string): string => (field === 'channel' ? `channel must be one of ${ChatChannel.options.join(', ')}` : field);

function create(ctx: TargetContext, body: Record<string, unknown> | undefined, reply: FastifyReply) {
  loadMeter(ctx, 'chat.create').hit();
  if (body === undefined && ctx.defects.has('chat-create-requires-body')) {
    return sendError(reply, ChatErrors.INVALID_FIELD, 'body');
  }
  const checked = checkBody(ChatCreateRequest, body);
  if (!checked.ok) return sendError(reply, ChatErrors.INVALID_FIELD, fieldDetail(checked.fields[0] ?? ''));
  const b = checked.data;
  if (b.channel === 'whatsapp' && ctx.defects.has('chat-whatsapp-rejected')) return sendError(reply, ChatErrors.INVALID_FIELD, fieldDetail('channel'));
  const conversation = ctx.conversations.create({
    source: 'chat',
    channel: b.channel ?? 'api',
    variantId: ctx.defects.has('chat-create-ignores-variant') ? undefined : b.variant_id,
    integrationAttributes: b.integration_attributes,
  });
  let response = GREETING;
  if (b.initial_message !== undefined) {
    const turn = agentTurn(b.initial_message);
    const now = ctx.clock.now();
    conversation.turns.push({ userInput: b.initial_message, userAt: now, agentResponse: turn.response, agentAt: now, intent: turn.intent });
    response = `${GREETING} ${turn.response}`;
    if (ctx.defects.has('chat-create-drops-conversation-id')) return reply.send({ response });
  }
  const out: ChatCreateResponse = { conversation_id: conversation.id, response };
  return reply.send(out);
}

function respond(ctx: TargetContext, body: Record<string, unknown> | undefined, reply: FastifyReply) {
  // The conversation is found, and its state judged, before the other fields: a closed one is 409 whatever they hold.
  const id = ChatRespondRequest.shape.conversation_id.safeParse(body?.conversation_id);
  if (!id.success) {
    if (!ctx.defects.has('chat-respond-without-id-accepted')) return sendError(reply, ChatErrors.CONVERSATION_ID_REQUIRED);
    return reply.send({ conversation_id: `conv-${ctx.rng.hex(20)}`, response: agentTurn(undefined).response, end_conversation: false });
  }
  const conversation = ctx.conversations.get(id.data);
  if (!conversation) return sendError(reply, ChatErrors.CONVERSATION_NOT_FOUND);
  if (conversation.status === 'closed') return sendError(reply, ChatErrors.CONVERSATION_CLOSED);
  // variant_id is a create field: respond's shape leaves it out, so it is looked for in the body as sent.
  if (body?.variant_id !== undefined) {
    if (!ctx.defects.has('chat-variant-changes-on-respond')) return sendError(reply, ChatErrors.VARIANT_ONLY_ON_CREATE);
    const variant = ChatCreateRequest.shape.variant_id.safeParse(body.variant_id);
    if (variant.success && variant.data !== undefined) conversation.variantId = variant.data;
  }
  const checked = checkBody(ChatRespondRequest, body);
  if (!checked.ok) return sendError(reply, ChatErrors.INVALID_FIELD, fieldDetail(checked.fields[0] ?? ''));
  const b = checked.data;
  if (b.metadata !== undefined && ctx.defects.has('chat-respond-metadata-rejected')) return sendError(reply, ChatErrors.INVALID_FIELD, 'metadata');
  if (b.integration_attributes !== undefined) conversation.integrationAttributes = b.integration_attributes;

  // The user spoke when the request arrived, before the agent's drawn latency (--latency) was spent.
  const userAt = ctx.clock.now() - drawnDelayMs(reply.request);
  const turn = agentTurn(b.message);
  conversation.turns.push({
    userInput: b.message ?? '',
    userAt,
    agentResponse: turn.response,
    agentAt: ctx.clock.now(),
    intent: turn.intent,
  });
  const end = turn.endConversation && !ctx.defects.has('chat-goodbye-never-ends');
  if (end) conversation.status = 'flagged-to-end';
  const answeredId = ctx.defects.has('chat-respond-wrong-conversation-id') ? `conv-${ctx.rng.hex(20)}` : conversation.id;
  const out: ChatRespondResponse = { conversation_id: answeredId, response: turn.response, end_conversation: end };
  if (!end && ctx.defects.has('chat-respond-closes-after-first-turn')) ctx.conversations.close(conversation);
  if (turn.handoff) {
    conversation.handoff = turn.handoff;
    out.handoff = ctx.defects.has('chat-handoff-without-reason') ? ({ destination: turn.handoff.destination } as ChatRespondResponse['handoff']) : turn.handoff;
  }
  return reply.send(out);
}

function close(ctx: TargetContext, body: Record<string, unknown> | undefined, reply: FastifyReply) {
  const checked = checkBody(ChatCloseRequest, body);
  if (!checked.ok) {
    if (ctx.defects.has('chat-close-without-id-accepted')) return reply.send({ success: true } satisfies ChatCloseResponse);
    return sendError(reply, ChatErrors.CONVERSATION_ID_REQUIRED);
  }
  const conversation = ctx.conversations.get(checked.data.conversation_id);
  if (!conversation) return sendError(reply, ChatErrors.CONVERSATION_NOT_FOUND);
  ctx.conversations.close(conversation);
  const underLoad = ctx.defects.has('chat-close-fails-under-load') && loadMeter(ctx, 'chat.create').perSecond() > CHAT_LOAD_DEFECT_PER_SECOND;
  const out: ChatCloseResponse = { success: !ctx.defects.has('chat-close-success-false') && !underLoad };
  return reply.send(out);
}

/** One row per documented operation: its method and handler. */
const OPERATIONS: Record<ChatOperation, { method: 'POST' | 'PUT'; handler: Handler }> = {
  create: { method: 'POST', handler: create },
  respond: { method: 'POST', handler: respond },
  close: { method: 'PUT', handler: close },
};

/** The op of each operation, as the load scenarios tag it; its latency is spent before the handler (src/reference-target/ops.ts). */
const OPS_OF: Record<ChatOperation, Op> = { create: 'chat.create', respond: 'chat.respond', close: 'chat.close' };
const opOfChat = (op: string): Op | undefined => (Object.hasOwn(OPS_OF, op) ? OPS_OF[op as ChatOperation] : undefined);

/** Header lookup that accepts any case: HTTP header names are case-insensitive on the wire (see ARCHITECTURE.md). */
function credentialsOk(ctx: TargetContext, req: FastifyRequest, reply: FastifyReply): boolean {
  const key = req.headers['x-api-key'];
  const token = req.headers['x-token'];
  const skipToken = ctx.defects.has('chat-token-not-checked');
  if (key === undefined || (token === undefined && !skipToken)) {
    sendError(reply, ChatErrors.MISSING_CREDENTIALS);
    return false;
  }
  if (key !== ctx.credentials.chat_api_key || (!skipToken && token !== ctx.credentials.chat_connector_token)) {
    sendError(reply, ChatErrors.INVALID_CREDENTIALS);
    return false;
  }
  return true;
}

/** Registers `/{version}/{account_id}/{project_id}/chat/{op}` (document 1, Chat API). */
function registerChat(app: FastifyInstance, ctx: TargetContext): void {
  app.route<{ Params: Params; Body: unknown }>({
    method: ['POST', 'PUT', 'GET', 'PATCH', 'DELETE'],
    url: '/:version/:account/:project/chat/:op',
    config: { op: (req) => opOfChat((req.params as Params).op) },
    handler: (req, reply) => {
      const { version, account, project, op } = req.params;
      if (!credentialsOk(ctx, req, reply)) return reply;
      if (!ctx.chatVersions.includes(version)) return sendError(reply, ChatErrors.UNKNOWN_VERSION);
      if (!matchTenant(ctx.tenant, account, project, !ctx.defects.has('chat-prefixed-ids-refused'))) {
        return sendError(reply, ChatErrors.UNKNOWN_TENANT);
      }
      const served = ctx.defects.has('chat-unknown-operation-served') && !ChatOperation.safeParse(op).success ? 'create' : op;
      const operation = ChatOperation.safeParse(served);
      if (!operation.success) return sendError(reply, ChatErrors.UNKNOWN_OPERATION);
      const { method, handler } = OPERATIONS[operation.data];
      if (req.method !== method) return sendError(reply, ChatErrors.METHOD_NOT_ALLOWED);
      const body = req.body;
      if (body !== undefined && !isRecord(body)) return sendError(reply, ChatErrors.INVALID_FIELD, 'body must be a JSON object');
      return handler(ctx, body, reply);
    },
  });
}

/** The Chat API surface: conversations live in the shared store so records (document 2) can show them. */
export const chatSurface: SurfaceModule = {
  host: 'base_url',
  create: (ctx) => ({ register: (app) => registerChat(app, ctx) }),
};
