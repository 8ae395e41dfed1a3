import type { ChatCallOptions } from '../../src/clients/chat.js';
import type { Response } from '../../src/clients/exchange.js';
import { ChatAudit } from '../../src/contract/chat/audit.js';
import { ChatCreateResponse, ChatHeaders, type ChatOperation } from '../../src/contract/chat/shapes.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { perOperation } from '../../src/suite/per-operation.js';

/** One chat operation, sent with overridden credential headers. */
type Send = (o: ChatCallOptions) => Promise<Response<unknown>>;

/** A conversation of its own, created with the profile's credentials, for the operations that continue one. */
async function started(api: CaseApi): Promise<string> {
  return api.check.schema(await api.t.chat.create({}), ChatCreateResponse, 'the conversation the operation continues').conversation_id;
}

/** How each chat operation is sent (respond and close on a conversation of their own, started with good credentials). */
const SENDERS: Record<ChatOperation, (api: CaseApi) => Promise<Send>> = {
  create:
    async ({ t }) =>
    (o) =>
      t.chat.create({}, o),
  respond: async (api) => {
    const conversation_id = await started(api);
    return (o) => api.t.chat.respond({ conversation_id, message: 'Hello' }, o);
  },
  close: async (api) => {
    const conversation_id = await started(api);
    return (o) => api.t.chat.close({ conversation_id }, o);
  },
};

/** Sends each request of `sends` to `operation` and checks that every one is rejected. */
function rejectsEach(sends: readonly (readonly [ChatCallOptions['headers'], string])[]) {
  return async (api: CaseApi, operation: ChatOperation) => {
    const send = await SENDERS[operation](api);
    const statuses: number[] = [];
    for (const [headers, how] of sends) {
      const res = await send({ headers });
      api.check.rejected(res, `chat/${operation} ${how} is rejected`);
      statuses.push(res.status);
    }
    api.observe('statuses', statuses);
  };
}

// One case per credential rule and operation it covers (the audit's rows), each with a mutation of its own.
perOperation(ChatAudit.credentials, {
  'chat.auth.headers-required': {
    sentence: 'rejects a request missing X-API-KEY or X-TOKEN',
    body: rejectsEach([
      [{ [ChatHeaders.apiKey]: undefined }, 'without X-API-KEY'],
      [{ [ChatHeaders.token]: undefined }, 'without X-TOKEN'],
    ]),
  },
  'chat.auth.invalid-credentials': {
    sentence: 'rejects an API key or connector token the operator did not issue',
    body: rejectsEach([
      [{ [ChatHeaders.apiKey]: 'dialtone-not-a-real-key' }, 'with an unknown API key'],
      [{ [ChatHeaders.token]: 'dialtone-not-a-real-token' }, 'with an unknown connector token'],
    ]),
  },
});

rule('chat.auth.header-names-case-sensitive', 'records whether the credential headers are refused in another case', async ({ t, check, observe }) => {
  const res = await t.chat.create({});
  check.that(
    'X-API-KEY' in res.exchange.requestHeaders && 'X-TOKEN' in res.exchange.requestHeaders,
    'sent as X-API-KEY and X-TOKEN',
    Object.keys(res.exchange.requestHeaders),
  );
  check.success(res, 'X-API-KEY and X-TOKEN, exactly so, are accepted');
  const creds = t.chat.credentialHeaders();
  const lower = await t.chat.create(
    {},
    {
      headers: {
        [ChatHeaders.apiKey]: undefined,
        [ChatHeaders.token]: undefined,
        'x-api-key': creds[ChatHeaders.apiKey] ?? '',
        'x-token': creds[ChatHeaders.token] ?? '',
      },
    },
  );
  observe('lower-case names (HTTP treats header names case-insensitively)', lower.status);
});

rule('chat.errors.body-and-status', 'records the error body and status the target chose', async ({ t, observe }) => {
  const res = await t.chat.respond({ message: 'no id' });
  observe('respond without conversation_id', `${res.status} ${res.headers['content-type'] ?? ''} ${res.text.slice(0, 200)}`);
});
