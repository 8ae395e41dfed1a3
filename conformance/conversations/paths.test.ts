import { type CaseApi, rule } from '../../src/suite/case.js';
import { ids, page, windows } from './records.js';

const day = (api: CaseApi) => ({ ...windows(api.t).day, client_env: 'live', limit: 20 });

rule('conversations.path.versions', 'serves the list at /v3, /v2 and /v1', async (api) => {
  for (const version of ['v3', 'v2', 'v1']) {
    api.check.success(await api.t.records.list(day(api), { version }), `/${version}/{account_id}/{project_id}/conversations answers 2xx`);
  }
});

rule('conversations.path.slug-and-prefixed-ids', 'accepts account and project ids in slug and prefixed form alike', async (api) => {
  const { t, check } = api;
  const p = t.profile;
  check.that(
    p.account_id_alt !== undefined && p.project_id_alt !== undefined,
    'the profile names the other id form (account_id_alt, project_id_alt)',
    'missing',
  );
  const slug = await page(api, day(api));
  const prefixed = await page(api, day(api), { accountId: p.account_id_alt ?? '', projectId: p.project_id_alt ?? '' });
  check.that(slug.conversations.length > 0, 'records', 0);
  check.equal(ids(prefixed.conversations), ids(slug.conversations), 'the same records under both forms');
});

rule('conversations.auth.x-api-key-required', 'rejects a v3 list without x-api-key or with a key never issued', async (api) => {
  api.check.rejected(await api.t.records.list(day(api), { apiKey: null }), 'no x-api-key is rejected');
  api.check.rejected(await api.t.records.list(day(api), { apiKey: 'dialtone-not-a-real-key' }), 'an unknown key is rejected');
});

rule('conversations.auth.project-region-scoped', 'rejects a v3 key issued for another project', async (api) => {
  const other = api.t.records.secret('conversations_other_project_key');
  api.check.that(other !== undefined, 'the profile names conversations_other_project_key', 'missing');
  api.check.rejected(await api.t.records.list(day(api), { apiKey: other ?? '' }), "another project's key is rejected on this project");
  api.observe('region', 'the region half is not checked: the profile names one region');
});

rule('conversations.auth.legacy-key-model', 'records how v1 and v2 treat keys', async (api) => {
  const out: Record<string, number> = {};
  for (const version of ['v1', 'v2']) {
    out[`${version} with the v3 key`] = (await api.t.records.list(day(api), { version })).status;
    out[`${version} without a key`] = (await api.t.records.list(day(api), { version, apiKey: null })).status;
  }
  api.observe('statuses', out);
});

rule('conversations.errors.body', 'records the body of a list error', async (api) => {
  const res = await api.t.records.list({ ...day(api), cursor: 'not-a-cursor!' });
  api.observe('malformed cursor', `${res.status} ${res.headers['content-type'] ?? ''} ${res.text.slice(0, 200)}`);
});

rule('conversations.limits.rate', 'records whether a short burst of list requests is limited', async (api) => {
  // Every request's outcome, a missing answer included: one that fails must not hide the nine others.
  const settled = await Promise.allSettled(Array.from({ length: 10 }, () => api.t.records.list({ ...day(api), limit: 1 })));
  api.observe(
    'statuses of 10 concurrent requests',
    settled.map((s) => (s.status === 'fulfilled' ? s.value.status : `no answer: ${(s.reason as Error).message}`)),
  );
});
