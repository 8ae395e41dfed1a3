import { ChatCreateResponse, ChatRespondResponse } from '../../src/contract/chat/shapes.js';
import { rule } from '../../src/suite/case.js';

rule('chat.path.version-segment', "accepts the profile's API version as the first path segment", async ({ t, check }) => {
  const res = await t.chat.create({});
  check.success(res, `create under /${t.profile.api_version}/ succeeds`);
  check.that(new URL(res.exchange.url).pathname.startsWith(`/${t.profile.api_version}/`), 'the version as first segment', res.exchange.url);
});

rule('chat.path.versions-list', 'records whether other version segments are served', async ({ t, observe }) => {
  for (const version of ['v2', 'v0']) {
    const res = await t.chat.create({}, { version });
    observe(`create under /${version}/`, res.status);
  }
});

rule('chat.path.slug-and-prefixed-ids', 'accepts account and project ids in both slug and prefixed form', async ({ t, check, observe }) => {
  const p = t.profile;
  const forms: [string, string, string][] = [['profile form', p.account_id, p.project_id]];
  if (p.account_id_alt && p.project_id_alt) forms.push(['other form', p.account_id_alt, p.project_id_alt]);
  else observe('other form', 'the profile names no account_id_alt/project_id_alt, so only one form was checked');
  for (const [label, accountId, projectId] of forms) {
    const res = await t.chat.create({}, { accountId, projectId });
    check.success(res, `create with the ${label} (${accountId}/${projectId}) succeeds`);
    check.schema(res, ChatCreateResponse, 'the create response');
  }
});

rule('chat.path.operation-segment', 'does not serve an operation segment other than create, respond or close', async ({ t, check, observe }) => {
  const res = await t.chat.call('delete', 'POST', {});
  check.rejected(res, 'an unknown chat operation is not served');
  observe('status', res.status);
});

rule(
  'chat.path.id-forms-across-a-conversation',
  'continues and closes under one form of the ids a conversation created under the other',
  async ({ t, check, observe }) => {
    const p = t.profile;
    check.that(
      p.account_id_alt !== undefined && p.project_id_alt !== undefined,
      'the profile names the other id form (account_id_alt, project_id_alt)',
      'missing',
    );
    const forms = [
      { accountId: p.account_id, projectId: p.project_id },
      { accountId: p.account_id_alt ?? '', projectId: p.project_id_alt ?? '' },
    ];
    for (const [label, created, other] of [
      ['profile form, continued in the other', forms[0], forms[1]],
      ['other form, continued in the profile form', forms[1], forms[0]],
    ] as const) {
      const res = await t.chat.create({}, created);
      const conversation_id = check.schema(res, ChatCreateResponse, `create under the ${label.split(',')[0]}`).conversation_id;
      const next = await t.chat.respond({ conversation_id, message: 'Hello' }, other);
      check.success(next, `respond under the ${label}`);
      check.equal(check.schema(next, ChatRespondResponse, 'the respond response').conversation_id, conversation_id, 'the same conversation answers');
      check.success(await t.chat.close({ conversation_id }, other), `close under the ${label}`);
    }
    observe(
      'forms',
      forms.map((f) => `${f.accountId}/${f.projectId}`),
    );
  },
);
