import { ChatHeaders } from '../../src/contract/chat/shapes.js';
import { rule } from '../../src/suite/case.js';

rule('chat.auth.headers-required', 'rejects a request missing X-API-KEY or X-TOKEN', async ({ t, check, observe }) => {
  const noKey = await t.chat.create({}, { headers: { [ChatHeaders.apiKey]: undefined } });
  check.rejected(noKey, 'a request without X-API-KEY is rejected');
  const noToken = await t.chat.create({}, { headers: { [ChatHeaders.token]: undefined } });
  check.rejected(noToken, 'a request without X-TOKEN is rejected');
  observe('statuses', [noKey.status, noToken.status]);
});

rule('chat.auth.invalid-credentials', 'rejects an API key or connector token the operator did not issue', async ({ t, check }) => {
  const badKey = await t.chat.create({}, { headers: { [ChatHeaders.apiKey]: 'dialtone-not-a-real-key' } });
  check.rejected(badKey, 'an unknown API key is rejected');
  const badToken = await t.chat.create({}, { headers: { [ChatHeaders.token]: 'dialtone-not-a-real-token' } });
  check.rejected(badToken, 'an unknown connector token is rejected');
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
