import { ChatCloseResponse, ChatCreateResponse } from '../../src/contract/chat/shapes.js';
import { rule } from '../../src/suite/case.js';

rule('chat.close.success-true', 'closes a conversation with PUT and answers success: true', async ({ t, check }) => {
  const created = await t.chat.create({ channel: 'sms' });
  const id = check.schema(created, ChatCreateResponse, 'the create response').conversation_id;
  const res = await t.chat.close({ conversation_id: id });
  check.success(res, 'close succeeds');
  const body = check.schema(res, ChatCloseResponse, 'success (boolean)');
  check.equal(body.success, true, 'success: true');
});

rule('chat.close.conversation-id-required', 'rejects close without a JSON body holding conversation_id', async ({ t, check, observe }) => {
  const empty = await t.chat.close(undefined);
  check.rejected(empty, 'close with no body is rejected');
  const noId = await t.chat.close({});
  check.rejected(noId, 'close with a body lacking conversation_id is rejected');
  observe('statuses', [empty.status, noId.status]);
});

rule('chat.close.after-close', 'records what respond answers after the conversation was closed', async ({ t, check, observe }) => {
  const created = await t.chat.create({});
  const id = check.schema(created, ChatCreateResponse, 'the create response').conversation_id;
  await t.chat.close({ conversation_id: id });
  const res = await t.chat.respond({ conversation_id: id, message: 'Are you still there?' });
  observe('respond after close', `${res.status} ${res.text.slice(0, 200)}`);
});
