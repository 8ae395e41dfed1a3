import { describe, expect, it } from 'vitest';
import { audit, auditCounts } from '../src/cli/audit.js';
import { ROOT } from '../src/cli/root.js';
import { ruleIndex } from '../src/cli/rule-index.js';
import { by } from '../src/contract/audit.js';
import { ChatAudit } from '../src/contract/chat/audit.js';
import { Audits } from '../src/contract/index.js';
import { MessagingAudit } from '../src/contract/messaging/audit.js';
import { dialtoneInProcess as dialtone } from './in-process-cli.js';

const index = await ruleIndex(ROOT);
const problems = (lines: ReturnType<typeof audit>) => lines.filter((l) => l.problem).map((l) => `${l.what}: ${l.problem}`);

describe('the coverage audit (dialtone rules --audit)', () => {
  it('places every request field, credential operation and event path with a case or a reason', () => {
    expect(problems(audit(index))).toEqual([]);
  });

  it('counts each kind, and lists every credential rule on each operation it covers', () => {
    const counts = auditCounts(audit(index));
    expect(counts.credential.problem).toBe(0);
    expect(counts.credential.case).toBeGreaterThan(0);
    const chat = audit(index).filter((l) => l.kind === 'credential' && l.what.startsWith('chat.auth.headers-required on '));
    expect(chat.map((l) => l.what)).toEqual(['create', 'respond', 'close'].map((op) => `chat.auth.headers-required on ${op}`));
  });

  it('fails a documented request field that no surface places', () => {
    const fields = ChatAudit.fields.filter((f) => f.field !== 'initial_message');
    const out = problems(audit(index, { ...Audits, chat: { ...ChatAudit, fields } }));
    expect(out).toEqual(['POST /{version}/{account_id}/{project_id}/chat/create initial_message: no case and no reason']);
  });

  it('fails a row whose reason is empty, whose case is an open rule or no rule, or that names no documented field', () => {
    const shown = { asr_lang_code: { observed: ' ' }, channel: by('chat.create.channel-unknown'), variant_id: by('chat.nope.nope') } as const;
    const fields = ChatAudit.fields.map((f) =>
      f.operation.endsWith('/create') && f.field in shown ? { ...f, shown: shown[f.field as keyof typeof shown] } : f,
    );
    const out = problems(
      audit(index, { ...Audits, chat: { ...ChatAudit, fields: [...fields, { operation: 'GET /nowhere', field: 'x', shown: by('chat.close.success-true') }] } }),
    );
    const create = 'POST /{version}/{account_id}/{project_id}/chat/create';
    expect(out).toEqual([
      `${create} variant_id: names no rule 'chat.nope.nope'`,
      `${create} channel: 'chat.create.channel-unknown' is open ("not shown"): it cannot fail, so it shows no effect`,
      `${create} asr_lang_code: a reason that is empty`,
      'GET /nowhere x: no documented operation has this field',
    ]);
  });

  it('fails a credential operation that no mutation of its own proves able to fail, and a credential rule no row lists', () => {
    const credentials = [{ rule: 'chat.auth.headers-required', operations: ['create', 'respond', 'close', 'reopen'] }];
    const out = problems(audit(index, { ...Audits, chat: { ...ChatAudit, credentials } }));
    expect(out).toEqual([
      'chat.auth.headers-required on reopen: no mutation of its own proves this operation able to fail',
      'chat.auth.invalid-credentials: a credential rule no audit row lists',
    ]);
  });

  it('fails an event field with a delivery path that has no case and no reason', () => {
    const events = [{ event: 'EVENT_TYPE_SERVICE_AGENT_JOINED', field: 'id', paths: { live: by('messaging.events.server-envelope-fields') } }];
    const out = problems(audit(index, { ...Audits, messaging: { ...MessagingAudit, events } }));
    expect(out).toEqual([
      'EVENT_TYPE_SERVICE_AGENT_JOINED id (every-socket): no case and no reason',
      'EVENT_TYPE_SERVICE_AGENT_JOINED id (replay): no case and no reason',
    ]);
  });

  it('prints every row and the counts per kind, and exits 0 when nothing is missing', async () => {
    const r = await dialtone(['rules', '--audit']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('case      chat.auth.headers-required on respond: chat.auth.headers-required (conformance/chat/auth.test.ts:');
    expect(r.stdout).toMatch(
      /^request fields of every operation: \d+ shown by a case, \d+ not observable \(reason given\), \d+ known gaps \(reason given\), 0 problems$/m,
    );
  });
});
