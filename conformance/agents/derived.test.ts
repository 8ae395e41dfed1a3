import { deriveRequestCases } from '../../src/suite/derived/requests.js';

// Cases derived from the contract (src/contract/operations.ts): each documented bound of a request field, checked at its
// edges, in other scripts and forms for a length in characters. Only how to send a valid request is written here.

deriveRequestCases('agents', {
  'POST /v1/agents': (api, change) => api.t.agents.createAgent({ name: 'dialtone derived', description: 'derived check', ...change.body }),
});
