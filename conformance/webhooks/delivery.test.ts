import { type CaseAccount, mintedAccount } from '../../src/clients/agents-control.js';
import { eventType, type ReceivedDelivery, ReplayGuard, type Responder, verifyAnyScheme, WebhookReceiver } from '../../src/clients/webhook-receiver.js';
import { AlertMetric, AlertRule, AlertState } from '../../src/contract/alerts/shapes.js';
import { AlertTriggeredPayload, SIGNATURE_TOLERANCE_SECONDS, verifyDelivery, WebhookSignatureHeaders } from '../../src/contract/webhooks/shapes.js';
import type { CaseApi } from '../../src/suite/case.js';
import { rule } from '../../src/suite/case.js';

/** One case's setup: a minted account, its own receiver registered as an endpoint, and an alert rule. */
interface Firing {
  readonly acct: CaseAccount;
  readonly rx: WebhookReceiver;
  readonly secret: string;
  readonly rule: { id: string; name: string };
  /** Sets the rule's metric and evaluates now; resolves once first delivery attempts have ended. */
  set(value: number | null): Promise<void>;
}

const RULE = { metric: 'api_errors', operator: '>=', threshold_value: 10, window_duration: '5m' } as const;

async function firing(
  api: CaseApi,
  o: { eventTypes?: string[]; respond?: Responder; rule?: Record<string, unknown> } = {},
  body: (f: Firing) => Promise<void>,
): Promise<void> {
  const { t, check } = api;
  const acct = await mintedAccount(t.agents, t.control);
  const rx = await WebhookReceiver.start(o.respond);
  try {
    const ep = await acct.client.createEndpoint({
      name: 'dialtone receiver',
      url: rx.url,
      event_types: o.eventTypes ?? ['alerts.triggered', 'alerts.resolved'],
    });
    check.success(ep, 'the webhook endpoint is registered');
    const secret = String(ep.json?.signing_secret);
    const name = `dialtone delivery ${Math.random().toString(36).slice(2, 8)}`;
    const fields: Record<string, unknown> = { ...RULE, name, ...o.rule };
    const created = await acct.client.createRule(fields);
    check.success(created, 'the alert rule is created');
    const r = check.schema(created, AlertRule.pick({ id: true, name: true }), 'the created rule');
    const metric = AlertMetric.parse(fields.metric);
    const projectId = typeof fields.project_id === 'string' ? fields.project_id : undefined;
    await body({
      acct,
      rx,
      secret,
      rule: r,
      set: async (value) => {
        await acct.control.setMetric(acct.accountId, metric, value, projectId);
        await acct.control.evaluate(acct.accountId);
      },
    });
  } finally {
    await rx.close();
  }
}

/** Matches a delivery of an event for the rule, by the rule's name (the payload's alert id need not be the rule id). */
const of = (name: string, event: string) => (d: ReceivedDelivery) =>
  eventType(d) === event && (d.json as { alert?: { name?: unknown } } | undefined)?.alert?.name === name;

const CONTROL = { needs: ['control'] } as const;

rule(
  'webhooks.delivery.signed',
  "signs each delivery with the endpoint's secret, so a tampered or replayed copy is refused",
  (api) =>
    firing(api, { rule: { threshold_value: 1 } }, async ({ acct, rx, secret, rule: r }) => {
      const { check, observe, timing } = api;
      const breach = performance.now();
      check.status(await acct.client.deployments('agt_0000000000000000', { environment: 'sandbox' }), 404, 'one real API error breaches threshold 1');
      await acct.control.evaluate(acct.accountId);
      const d = await rx.waitFor(of(r.name, 'alerts.triggered'), 'alerts.triggered');
      const now = await acct.control.nowSeconds();
      check.equal(d.method, 'POST', 'an HTTP POST');
      const verified = verifyAnyScheme(secret, d, now);
      check.that(verified.ok, "a signature made with the endpoint's signing_secret", verified.ok ? '' : verified.reason);
      timing('breach-to-verified-delivery', performance.now() - breach);
      const tampered = Buffer.from(d.text.replace(r.name, `${r.name} (edited)`));
      check.that(!verifyAnyScheme(secret, { headers: d.headers, body: tampered }, now).ok, 'a tampered body fails verification', 'it verified');
      if (verified.ok && verified.scheme === 'standard-webhooks') {
        const guard = new ReplayGuard();
        check.that(guard.accept(secret, d, now).ok, 'the delivery is accepted once', 'refused');
        check.that(!guard.accept(secret, d, now).ok, 'the same delivery replayed is refused (seen webhook-id)', 'accepted twice');
        const late = verifyDelivery(secret, d.headers, d.body, now + SIGNATURE_TOLERANCE_SECONDS + 1);
        check.that(!late.ok, `the delivery replayed ${SIGNATURE_TOLERANCE_SECONDS + 1} s later is refused (timestamp)`, 'accepted');
      } else {
        observe('replay', 'not checked: the signature scheme carries no signed id and timestamp');
      }
    }),
  CONTROL,
);

rule(
  'webhooks.delivery.subscribed-only',
  'delivers each event only to endpoints subscribed to it',
  (api) =>
    firing(api, { eventTypes: ['alerts.triggered'] }, async ({ acct, rx, rule: r, set }) => {
      const { check } = api;
      const resolvedOnly = await WebhookReceiver.start();
      try {
        check.success(
          await acct.client.createEndpoint({ name: 'resolved only', url: resolvedOnly.url, event_types: ['alerts.resolved'] }),
          'a second endpoint, subscribed to alerts.resolved only',
        );
        await set(12);
        await rx.waitFor(of(r.name, 'alerts.triggered'), 'alerts.triggered at the triggered-only endpoint');
        await set(3);
        await resolvedOnly.waitFor(of(r.name, 'alerts.resolved'), 'alerts.resolved at the resolved-only endpoint');
        check.equal(rx.deliveries.map(eventType), ['alerts.triggered'], 'the triggered-only endpoint got alerts.triggered and nothing else');
        check.equal(resolvedOnly.deliveries.map(eventType), ['alerts.resolved'], 'the resolved-only endpoint got alerts.resolved and nothing else');
      } finally {
        await resolvedOnly.close();
      }
    }),
  CONTROL,
);

rule(
  'webhooks.delivery.headers',
  'records the headers a delivery carries',
  (api) =>
    firing(api, {}, async ({ rx, rule: r, set }) => {
      await set(12);
      const d = await rx.waitFor(of(r.name, 'alerts.triggered'), 'alerts.triggered');
      api.observe('header names', Object.keys(d.headers).sort().join(', '));
      api.observe('content-type', d.headers['content-type'] ?? 'none');
    }),
  CONTROL,
);

rule(
  'webhooks.delivery.retries',
  'records whether a delivery answered 500 is retried, and after how long',
  (api) =>
    firing(api, { respond: (_d, n) => (n === 0 ? 500 : 200) }, async ({ rx, rule: r, set }) => {
      await set(12);
      const first = await rx.waitFor(of(r.name, 'alerts.triggered'), 'alerts.triggered');
      const retry = await rx.waitFor((d) => d !== first && of(r.name, 'alerts.triggered')(d), 'a retry of alerts.triggered', 15_000);
      api.observe('retried after (ms)', Math.round(retry.receivedAt - first.receivedAt));
      api.observe('same webhook-id', retry.headers[WebhookSignatureHeaders.id] === first.headers[WebhookSignatureHeaders.id]);
    }),
  CONTROL,
);

rule(
  'webhooks.delivery.signature-scheme',
  'records whether deliveries verify under Standard Webhooks',
  (api) =>
    firing(api, {}, async ({ acct, rx, secret, rule: r, set }) => {
      await set(12);
      const d = await rx.waitFor(of(r.name, 'alerts.triggered'), 'alerts.triggered');
      const result = verifyAnyScheme(secret, d, await acct.control.nowSeconds());
      api.observe('scheme', result.ok ? result.scheme : `none verified (${result.reason})`);
    }),
  CONTROL,
);

rule(
  'webhooks.event.triggered',
  'delivers alerts.triggered when a rule starts firing',
  (api) =>
    firing(api, {}, async ({ rx, rule: r, set }) => {
      await set(12);
      await rx.waitFor(of(r.name, 'alerts.triggered'), 'alerts.triggered');
    }),
  CONTROL,
);

rule(
  'webhooks.event.resolved',
  'delivers alerts.resolved when a firing alert goes back to ok, and not for a rule that never fired',
  (api) =>
    firing(api, {}, async ({ rx, rule: r, set }) => {
      const { check } = api;
      await set(3);
      check.equal(rx.deliveries.filter(of(r.name, 'alerts.resolved')).length, 0, 'no alerts.resolved for a rule that never fired');
      await set(12);
      await rx.waitFor(of(r.name, 'alerts.triggered'), 'alerts.triggered');
      await set(3);
      await rx.waitFor(of(r.name, 'alerts.resolved'), 'alerts.resolved');
    }),
  CONTROL,
);

rule(
  'webhooks.payload.triggered-fields',
  'carries event_type and the documented alert fields in alerts.triggered',
  (api) =>
    firing(
      api,
      { rule: { metric: 'function_errors', threshold_value: 5, window_duration: '10m', project_id: 'dialtone-east' } },
      async ({ rx, rule: r, set }) => {
        const { check } = api;
        await set(7);
        const d = await rx.waitFor(of(r.name, 'alerts.triggered'), 'alerts.triggered');
        const parsed = AlertTriggeredPayload.safeParse(d.json);
        const documented = 'event_type and alert {id, name, project_id, metric, operator, threshold_value, current_value, previous_state, triggered_at}';
        check.that(parsed.success, documented, d.text.slice(0, 300));
        check.names(d.json, AlertTriggeredPayload, documented);
        const a = (parsed.data as AlertTriggeredPayload).alert;
        check.equal(
          [a.name, a.project_id, a.metric, a.operator, a.threshold_value, a.current_value],
          [r.name, 'dialtone-east', 'function_errors', '>=', 5, 7],
          'the fields of the rule and the value that breached it',
        );
        check.that(AlertState.safeParse(a.previous_state).success && a.previous_state !== 'alert', 'previous_state: the state it left', a.previous_state);
      },
    ),
  CONTROL,
);

rule(
  'webhooks.payload.resolved',
  'records the body of alerts.resolved',
  (api) =>
    firing(api, {}, async ({ rx, rule: r, set }) => {
      await set(12);
      await set(3);
      const d = await rx.waitFor(of(r.name, 'alerts.resolved'), 'alerts.resolved');
      api.observe('alerts.resolved body', d.text.slice(0, 400));
    }),
  CONTROL,
);
