import { deriveRequestCases } from '../../src/suite/derived/cases.js';
import { chatConversation, marker } from '../conversations/records.js';

// Cases derived from the contract (the meanings in src/contract/bridge/shapes.ts): each field the documents call
// required, left out of an otherwise valid notification. Only how to send a valid notification is written here.

deriveRequestCases('bridge', {
  'POST /internal/v1/agentic-dial/bridge-ended': async (api, change) =>
    api.t.calls.bridgeEnded({
      conversation_id: await chatConversation(api, `Please transfer me ${marker()}`),
      bridge_duration_seconds: 95.5,
      call_duration_seconds: 240,
      ...change.body,
    }),
});
