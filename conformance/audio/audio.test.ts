import type { Response } from '../../src/clients/exchange.js';
import type { Query } from '../../src/clients/records.js';
import { readWavHeader } from '../../src/contract/audio/shapes.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { page, windows } from '../conversations/records.js';

/** A conversation of the profile project to fetch recordings of. */
async function conversation(api: CaseApi): Promise<string> {
  const p = await page(api, { ...windows(api.t).day, client_env: 'live', limit: 1 });
  api.check.that(p.conversations.length > 0, 'a conversation to fetch the audio of', 0);
  return String(p.conversations[0]?.id);
}

/** A WAV a player can play: RIFF/WAVE, a PCM-style fmt chunk, and as many data bytes as its header says. */
function wav(api: CaseApi, res: Response, documented: string): Buffer {
  api.check.success(res, `${documented}: answered 2xx`);
  const bytes = res.bytes ?? Buffer.alloc(0);
  const h = readWavHeader(bytes);
  api.check.that(h !== undefined, `${documented}: a WAV file (RIFF, WAVE, fmt and data chunks)`, bytes.subarray(0, 16).toString('latin1'));
  const header = h as NonNullable<typeof h>;
  const blockAlign = (header.channels * header.bitsPerSample) / 8;
  api.check.that(
    header.channels > 0 &&
      header.sampleRate > 0 &&
      [8, 16, 24, 32].includes(header.bitsPerSample) &&
      header.dataBytes > 0 &&
      header.dataBytes <= header.dataPresent &&
      header.dataBytes % blockAlign === 0,
    `${documented}: a playable format with its sample data present`,
    header,
  );
  return bytes;
}

/** The PII key (the profile's conversations key) and the key without PII access. */
function keys(api: CaseApi): { pii: string | undefined; noPii: string } {
  const noPii = api.t.records.secret('conversations_api_key_no_pii');
  api.check.that(noPii !== undefined, 'the profile names conversations_api_key_no_pii (a key without PII access)', 'missing');
  return { pii: api.t.records.secret('conversations_api_key'), noPii: noPii ?? '' };
}

const fetchWav = async (api: CaseApi, id: string, query: Query, apiKey: string | undefined, documented: string) =>
  wav(api, await api.t.records.audio(id, query, apiKey === undefined ? {} : { apiKey }), documented);

/** The two recordings the redaction table chooses between, as a caller with PII access gets them. */
async function rawAndRedacted(api: CaseApi, id: string) {
  const { pii } = keys(api);
  const raw = await fetchWav(api, id, { redacted: false }, pii, 'with PII access, redacted=false');
  const redacted = await fetchWav(api, id, { redacted: true }, pii, 'with PII access, redacted=true');
  api.check.that(!raw.equals(redacted), 'the raw and the redacted recording differ (the conversation holds PII)', 'identical bytes');
  return { raw, redacted };
}

rule('audio.path.v3', 'serves audio at /v3/{account_id}/{project_id}/conversations/{conversation_id}/audio with slug or prefixed ids', async (api) => {
  const { t, check } = api;
  const id = await conversation(api);
  wav(api, await t.records.audio(id), 'the slug form');
  check.that(t.profile.account_id_alt !== undefined && t.profile.project_id_alt !== undefined, 'the profile names the prefixed ids', 'missing');
  wav(api, await t.records.audio(id, {}, { accountId: t.profile.account_id_alt ?? '', projectId: t.profile.project_id_alt ?? '' }), 'the prefixed form');
});

rule('audio.response.wav', 'answers with a WAV file', async (api) => {
  wav(api, await api.t.records.audio(await conversation(api)), 'the recording');
});

rule('audio.response.content-type', 'records the Content-Type of the recording', async (api) => {
  const res = await api.t.records.audio(await conversation(api));
  api.observe('Content-Type', res.headers['content-type'] ?? '(none)');
});

rule('audio.direction.default-combined', 'returns the combined recording without direction', async (api) => {
  const id = await conversation(api);
  const unset = await fetchWav(api, id, {}, undefined, 'no direction');
  const combined = await fetchWav(api, id, { direction: 'combined' }, undefined, 'direction=combined');
  api.check.that(unset.equals(combined), 'the same recording as direction=combined', `${unset.length} vs ${combined.length} bytes`);
});

/** The recordings of the three directions, fetched with the same key. */
async function directions(api: CaseApi) {
  const id = await conversation(api);
  const combined = await fetchWav(api, id, { direction: 'combined' }, undefined, 'direction=combined');
  const user = await fetchWav(api, id, { direction: 'user' }, undefined, 'direction=user');
  const agent = await fetchWav(api, id, { direction: 'agent' }, undefined, 'direction=agent');
  return { combined, user, agent };
}

rule('audio.direction.user', 'returns a WAV of the user side for direction=user', async (api) => {
  const { combined, user, agent } = await directions(api);
  api.check.that(!user.equals(combined), 'the user side differs from the combined recording', 'identical');
  api.check.that(!user.equals(agent), 'the user side differs from the agent side', 'identical');
});

rule('audio.direction.agent', 'returns a WAV of the agent side for direction=agent', async (api) => {
  const { combined, user, agent } = await directions(api);
  api.check.that(!agent.equals(combined), 'the agent side differs from the combined recording', 'identical');
  api.check.that(!agent.equals(user), 'the agent side differs from the user side', 'identical');
});

rule('audio.redacted.default-false', 'returns the same recording without redacted as with redacted=false', async (api) => {
  const id = await conversation(api);
  const { pii } = keys(api);
  const unset = await fetchWav(api, id, {}, pii, 'no redacted');
  const off = await fetchWav(api, id, { redacted: false }, pii, 'redacted=false');
  api.check.that(unset.equals(off), 'the same bytes', `${unset.length} vs ${off.length} bytes`);
});

rule('audio.redaction.pii-false-raw', 'gives a caller with PII access the raw recording for redacted false or omitted', async (api) => {
  const id = await conversation(api);
  const { raw } = await rawAndRedacted(api, id);
  const omitted = await fetchWav(api, id, {}, keys(api).pii, 'with PII access, redacted omitted');
  api.check.that(omitted.equals(raw), 'redacted omitted gives the raw recording too', 'differs');
});

rule('audio.redaction.pii-true-redacted', 'gives a caller with PII access the redacted recording for redacted=true', async (api) => {
  const id = await conversation(api);
  const { redacted } = await rawAndRedacted(api, id);
  const again = await fetchWav(api, id, { redacted: true }, keys(api).noPii, 'without PII access, redacted=true');
  api.check.that(redacted.equals(again), 'the redacted recording, the same one a caller without PII access gets', 'differs');
});

rule(
  'audio.redaction.no-pii-false-redacted',
  'gives a caller without PII access the redacted recording for redacted false or omitted (enforced)',
  async (api) => {
    const id = await conversation(api);
    const { raw, redacted } = await rawAndRedacted(api, id);
    const { noPii } = keys(api);
    for (const [why, query] of [
      ['redacted=false', { redacted: false }],
      ['redacted omitted', {}],
    ] as const) {
      const got = await fetchWav(api, id, query, noPii, `without PII access, ${why}`);
      api.check.that(!got.equals(raw), `${why}: never the raw recording`, 'the raw bytes');
      api.check.that(got.equals(redacted), `${why}: the redacted recording`, 'differs');
    }
  },
);

rule('audio.redaction.no-pii-true-redacted', 'gives a caller without PII access the redacted recording for redacted=true', async (api) => {
  const id = await conversation(api);
  const { raw, redacted } = await rawAndRedacted(api, id);
  const got = await fetchWav(api, id, { redacted: true }, keys(api).noPii, 'without PII access, redacted=true');
  api.check.that(got.equals(redacted) && !got.equals(raw), 'the redacted recording', 'differs');
});

rule('audio.redaction.pii-access-model', 'records how PII access is granted and what redaction changes', async (api) => {
  const id = await conversation(api);
  const { raw, redacted } = await rawAndRedacted(api, id);
  let changed = 0;
  let silenced = 0;
  for (let i = 44; i + 1 < Math.min(raw.length, redacted.length); i += 2) {
    if (raw.readInt16LE(i) === redacted.readInt16LE(i)) continue;
    changed++;
    if (redacted.readInt16LE(i) === 0) silenced++;
  }
  api.observe('samples that differ / of them silenced / all', [changed, silenced, Math.floor((raw.length - 44) / 2)]);
  api.observe(
    'how PII access is granted',
    api.t.capabilities.has('control') ? 'reference target: per key, the profile names one key with and one without' : 'not known for this target',
  );
});

rule('audio.auth.x-api-key-required', 'rejects an audio request without x-api-key or with a key never issued', async (api) => {
  const id = await conversation(api);
  api.check.rejected(await api.t.records.audio(id, {}, { apiKey: null }), 'no x-api-key is rejected');
  api.check.rejected(await api.t.records.audio(id, {}, { apiKey: 'dialtone-not-a-real-key' }), 'an unknown key is rejected');
});

rule('audio.errors.rejections-not-success', 'does not answer success to audio requests it cannot serve', async (api) => {
  const id = await conversation(api);
  for (const [why, cid, query] of [
    ['an unknown conversation', 'conv-dialtone-no-such-conversation', {}],
    ['a direction outside the enum', id, { direction: 'both' }],
    ['redacted not a boolean', id, { redacted: 'maybe' }],
  ] as const) {
    api.check.notSuccess(await api.t.records.audio(cid, query), `audio for ${why} is an error, not a success`);
  }
  const other = api.t.records.secret('conversations_other_project_key');
  if (other) api.check.notSuccess(await api.t.records.audio(id, {}, { apiKey: other }), 'audio with a key of another project is an error, not a success');
});

rule('audio.errors.not-shown', 'records what audio answers to requests it cannot serve', async (api) => {
  const id = await conversation(api);
  const out: Record<string, string> = {};
  for (const [why, cid, query] of [
    ['unknown conversation', 'conv-dialtone-no-such-conversation', {}],
    ['direction outside the enum', id, { direction: 'both' }],
    ['redacted not a boolean', id, { redacted: 'maybe' }],
  ] as const) {
    const res = await api.t.records.audio(cid, query);
    out[why] = `${res.status} ${res.text.slice(0, 100)}`;
  }
  out['another project key'] = String((await api.t.records.audio(id, {}, { apiKey: api.t.records.secret('conversations_other_project_key') ?? 'x' })).status);
  api.observe('answers', out);
});
