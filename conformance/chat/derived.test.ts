import { ChatCreateResponse } from '../../src/contract/chat/shapes.js';
import type { CaseApi } from '../../src/suite/case.js';
import { deriveRequestCases } from '../../src/suite/derived/cases.js';

// Cases derived from the contract (src/contract/operations.ts and the meanings in the shapes): each field the documents
// call required, left out of an otherwise valid request. Only how to send a valid request is written here.

/** A conversation to respond in or close. */
async function conversation(api: CaseApi): Promise<string> {
  return api.check.schema(await api.t.chat.create({ channel: 'api' }), ChatCreateResponse, 'a conversation to use').conversation_id;
}

deriveRequestCases('chat', {
  'POST /{version}/{account_id}/{project_id}/chat/respond': async (api, change) =>
    api.t.chat.respond({ conversation_id: await conversation(api), message: 'hello', ...change.body }),
  'PUT /{version}/{account_id}/{project_id}/chat/close': async (api, change) => api.t.chat.close({ conversation_id: await conversation(api), ...change.body }),
});
