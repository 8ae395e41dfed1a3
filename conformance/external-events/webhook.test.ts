import type { Response } from '../../src/clients/exchange.js';
import type { Query } from '../../src/clients/records.js';
import { EXTERNAL_EVENTS_SUCCESS_STATUS, ExternalEventsErrorBody, ExternalEventsHeaders } from '../../src/contract/external-events/shapes.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { marker, page, recordsControl, windows } from '../conversations/records.js';

const needs = { needs: ['control'] } as const;

/** The four query parameters, for the profile's account and project. */
const query = (api: CaseApi, location: string, path: string, extra: Query = {}): Query => ({
  event_id_location: location,
  event_id_path: path,
  account_id: api.t.profile.account_id,
  project_id: api.t.profile.project_id,
  ...extra,
});

/** A fresh event id bound to a conversation of the project (through the control surface). */
async function boundEvent(api: CaseApi, transientFailures = 0): Promise<string> {
  const p = await page(api, { ...windows(api.t).day, client_env: 'live', limit: 1 });
  api.check.that(p.conversations.length > 0, 'a conversation to bind the event to', 0);
  const eventId = `EVT-${marker()}`;
  await recordsControl(api).bindEvent(eventId, String(p.conversations[0]?.id), transientFailures);
  return eventId;
}

/** Sends an event whose id travels in the query string, with the given body. */
const viaQuery = (api: CaseApi, eventId: string, contentType: string, text: string) =>
  api.t.calls.webhook(query(api, 'querystring', 'ref', { ref: eventId }), { contentType, text });

const queued = (api: CaseApi, res: Response, documented: string) => api.check.success(res, `${documented}: accepted (2xx)`);
const errorBody = (api: CaseApi, res: Response, documented: string) =>
  api.check.schema(res, ExternalEventsErrorBody, `${documented}, with an error_message body`);

rule('external-events.path.v1', 'serves the webhook as POST /v1/external-events/webhook', async (api) => {
  const res = await api.t.calls.webhook(query(api, 'querystring', 'ref', { ref: `EVT-${marker()}` }), { contentType: 'application/json', text: '{}' });
  api.check.that(res.status !== 404 && res.status !== 405, 'the path is served (whatever it says of the event, it is not unrouted)', res.status);
});

rule(
  'external-events.status.201-queued',
  'answers 201 to a valid event for a bound event id',
  async (api) => {
    const id = await boundEvent(api);
    const res = await api.t.calls.webhook(query(api, 'payload', 'event_ref'), {
      contentType: 'application/json',
      text: JSON.stringify({ event_ref: id, result: 'paid' }),
    });
    api.check.status(res, EXTERNAL_EVENTS_SUCCESS_STATUS, 'the event is queued: 201');
  },
  needs,
);

rule(
  'external-events.status.success-body',
  'records the body of the 201',
  async (api) => {
    const res = await viaQuery(api, await boundEvent(api), 'application/json', '{"result":"ok"}');
    api.observe('201 body', `${res.headers['content-type'] ?? ''} ${res.text.slice(0, 200)}`);
  },
  needs,
);

rule('external-events.query.all-required', 'does not accept a webhook missing any of the four query parameters', async (api) => {
  const full = query(api, 'querystring', 'ref', { ref: `EVT-${marker()}` });
  for (const name of ['event_id_location', 'event_id_path', 'account_id', 'project_id']) {
    const res = await api.t.calls.webhook({ ...full, [name]: undefined }, { contentType: 'application/json', text: '{}' });
    api.check.rejected(res, `without ${name}: rejected`);
  }
});

rule('external-events.query.missing-status', 'records the status for missing or unknown query parameters', async (api) => {
  const full = query(api, 'querystring', 'ref', { ref: `EVT-${marker()}` });
  const out: Record<string, number> = {};
  const send = (q: Query) => api.t.calls.webhook(q, { contentType: 'application/json', text: '{}' }).then((r) => r.status);
  out['without event_id_location'] = await send({ ...full, event_id_location: undefined });
  out['event_id_location outside the enum'] = await send({ ...full, event_id_location: 'cookie' });
  out['unknown project'] = await send({ ...full, project_id: 'dialtone-no-such-project' });
  api.observe('statuses', out);
});

rule(
  'external-events.location.headers',
  'reads the event id from the header named by event_id_path for event_id_location=headers',
  async (api) => {
    const id = await boundEvent(api);
    const res = await api.t.calls.webhook(
      query(api, 'headers', 'X-Booking-Event'),
      { contentType: 'application/json', text: '{"status":"confirmed"}' },
      { headers: { 'X-Booking-Event': id } },
    );
    queued(api, res, 'the id in a header');
  },
  needs,
);

rule(
  'external-events.location.querystring',
  'reads the event id from the query parameter named by event_id_path for event_id_location=querystring',
  async (api) => {
    queued(api, await viaQuery(api, await boundEvent(api), 'application/json', '{"status":"confirmed"}'), 'the id in the query string');
  },
  needs,
);

rule(
  'external-events.location.payload',
  'reads the event id from the body field named by event_id_path for event_id_location=payload',
  async (api) => {
    const id = await boundEvent(api);
    const res = await api.t.calls.webhook(query(api, 'payload', 'reference'), {
      contentType: 'application/json',
      text: JSON.stringify({ reference: id, amount: 42 }),
    });
    queued(api, res, 'the id in the payload');
  },
  needs,
);

rule(
  'external-events.event-id-path.dotted',
  'follows a dotted event_id_path into nested payload fields',
  async (api) => {
    const id = await boundEvent(api);
    const res = await api.t.calls.webhook(query(api, 'payload', 'booking.ref.id'), {
      contentType: 'application/json',
      text: JSON.stringify({ booking: { ref: { id }, table: 4 } }),
    });
    queued(api, res, 'the id at booking.ref.id');
  },
  needs,
);

const BODIES: Record<string, [string, string]> = {
  json: ['application/json', '{"payment":{"status":"captured","amount":1250}}'],
  form: ['application/x-www-form-urlencoded', 'status=captured&amount=1250&currency=GBP'],
  xml: ['application/xml', '<payment><status>captured</status><amount>1250</amount></payment>'],
  text: ['text/plain', 'payment captured: 1250 GBP'],
};

for (const [rid, kind, sentence] of [
  ['external-events.content-type.json', 'json', 'accepts a body sent as application/json'],
  ['external-events.content-type.form-urlencoded', 'form', 'accepts a body sent as application/x-www-form-urlencoded'],
  ['external-events.content-type.xml', 'xml', 'accepts a body sent as application/xml'],
  ['external-events.content-type.text-plain', 'text', 'accepts a body sent as text/plain'],
] as const) {
  rule(
    rid,
    sentence,
    async (api) => {
      const [contentType, text] = BODIES[kind] as [string, string];
      queued(api, await viaQuery(api, await boundEvent(api), contentType, text), contentType);
    },
    needs,
  );
}

rule(
  'external-events.content-type.other',
  'records the answer to another content type and to ids inside xml and text payloads',
  async (api) => {
    const out: Record<string, number> = {};
    out['application/pdf'] = (await viaQuery(api, await boundEvent(api), 'application/pdf', '%PDF-1.4')).status;
    const xmlId = await boundEvent(api);
    out['id in an xml payload'] = (
      await api.t.calls.webhook(query(api, 'payload', 'booking.ref'), { contentType: 'application/xml', text: `<booking><ref>${xmlId}</ref></booking>` })
    ).status;
    const textId = await boundEvent(api);
    out['id in a text payload'] = (await api.t.calls.webhook(query(api, 'payload', 'ref'), { contentType: 'text/plain', text: `ref=${textId}` })).status;
    api.observe('statuses', out);
  },
  needs,
);

rule(
  'external-events.payload.opaque',
  'accepts any body of an accepted content type whatever its shape, and keeps it as sent',
  async (api) => {
    const rc = recordsControl(api);
    for (const [contentType, text] of [
      ['application/json', '[1, "two", {"three": null}]'],
      ['application/json', '{"not": json at all'],
      ['application/xml', '<unclosed attr="1">'],
      ['application/x-www-form-urlencoded', '%%%&&&=='],
      ['text/plain', '\u00e9v\u00e9nement \u2713 \n\n'],
    ] as const) {
      const id = await boundEvent(api);
      queued(api, await viaQuery(api, id, contentType, text), `${contentType} ${JSON.stringify(text)}`);
      const stored = await rc.storedEvents(id);
      api.check.equal(
        stored.events.map((e) => e.body),
        [text],
        'the payload is stored exactly as sent',
      );
    }
  },
  needs,
);

rule(
  'external-events.payload.binding',
  'records how an event id is bound to a conversation and where the payload shows',
  async (api) => {
    const id = await boundEvent(api);
    await viaQuery(api, id, 'application/json', '{"paid":true}');
    const stored = await recordsControl(api).storedEvents(id);
    api.observe('binding', 'reference target: an event id is bound to a conversation through its control surface');
    api.observe('stored for the conversation', { conversation_id: stored.conversation_id, events: stored.events.length });
  },
  needs,
);

rule('external-events.errors.400-event-id-not-found', 'answers 400 with error_message when no event id is at the location and path', async (api) => {
  for (const [why, q, text] of [
    ['payload field missing', query(api, 'payload', 'booking.ref'), '{"booking":{}}'],
    ['query parameter missing', query(api, 'querystring', 'ref'), '{}'],
    ['header missing', query(api, 'headers', 'X-Booking-Event'), '{}'],
  ] as const) {
    const res = await api.t.calls.webhook(q, { contentType: 'application/json', text });
    api.check.status(res, 400, `${why}: 400`);
    errorBody(api, res, 'the 400');
  }
});

rule('external-events.errors.400-event-id-invalid', 'answers 400 with error_message to an event id bound to no conversation', async (api) => {
  const res = await viaQuery(api, `EVT-never-bound-${marker()}`, 'application/json', '{"paid":true}');
  api.check.status(res, 400, 'an unknown event id: 400');
  errorBody(api, res, 'the 400');
});

rule('external-events.errors.401-key', 'answers 401 with error_message to a missing or invalid X-Api-Key', async (api) => {
  const q = query(api, 'querystring', 'ref', { ref: `EVT-${marker()}` });
  for (const [why, key] of [
    ['missing', undefined],
    ['invalid', 'dialtone-not-a-real-key'],
  ] as const) {
    const res = await api.t.calls.webhook(q, { contentType: 'application/json', text: '{}' }, { headers: { [ExternalEventsHeaders.apiKey]: key } });
    api.check.status(res, 401, `a ${why} key: 401`);
    errorBody(api, res, 'the 401');
  }
});

rule(
  'external-events.errors.500-transient',
  'answers 500 with error_message on a transient processing error',
  async (api) => {
    const id = await boundEvent(api, 1);
    const res = await viaQuery(api, id, 'application/json', '{"paid":true}');
    api.check.status(res, 500, 'a transient processing error: 500');
    errorBody(api, res, 'the 500');
    queued(api, await viaQuery(api, id, 'application/json', '{"paid":true}'), 'the retry once the fault has passed');
  },
  needs,
);

rule('external-events.errors.error-message-body', 'carries a string error_message in every error body', async (api) => {
  const answers = [
    await api.t.calls.webhook(query(api, 'payload', 'ref'), { contentType: 'application/json', text: '{}' }),
    await api.t.calls.webhook(query(api, 'headers', 'X-Booking-Event'), { contentType: 'text/plain', text: 'no id here' }),
    await api.t.calls.webhook(
      query(api, 'querystring', 'ref', { ref: 'x' }),
      { contentType: 'application/json', text: '{}' },
      { headers: { [ExternalEventsHeaders.apiKey]: undefined } },
    ),
  ];
  for (const res of answers) {
    api.check.that(res.status >= 400, 'an error', res.status);
    errorBody(api, res, `the ${res.status}`);
  }
});

rule('external-events.auth.dedicated-key', 'answers 401 to a key of another kind (the conversations key) in X-Api-Key', async (api) => {
  const key = api.t.records.secret('conversations_api_key');
  api.check.that(key !== undefined, 'the profile names conversations_api_key', 'missing');
  const res = await api.t.calls.webhook(
    query(api, 'querystring', 'ref', { ref: `EVT-${marker()}` }),
    { contentType: 'application/json', text: '{}' },
    { headers: { [ExternalEventsHeaders.apiKey]: key } },
  );
  api.check.status(res, 401, 'a conversations key is not an external-events key: 401');
});

rule('external-events.events.emitted', 'records what a webhook answer carries that could point at an emitted event', async (api) => {
  const id = api.t.capabilities.has('control') ? await boundEvent(api) : `EVT-${marker()}`;
  const res = await viaQuery(api, id, 'application/json', '{"paid":true}');
  api.observe('answer', { status: res.status, headers: Object.keys(res.headers).sort(), body: res.text.slice(0, 160) });
});
