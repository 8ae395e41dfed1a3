import { defineDefects } from '../defect.js';

/** Defects of alert rules and alerts (document 3). */
export const AlertsDefects = defineDefects({
  'alerts-eleventh-rule-accepted': {
    surface: 'alerts',
    breaks: ['alerts.rules.limit-10-409'],
    description: 'Off by one: an 11th alert rule is created; only the 12th answers 409.',
  },
  'alerts-threshold-strict-greater': {
    surface: 'alerts',
    breaks: ['alerts.metric.gte-threshold'],
    description: 'Evaluation compares with > instead of >=, so a value equal to the threshold does not trigger.',
  },
  'alerts-patch-replaces': {
    surface: 'alerts',
    breaks: ['alerts.rules.patch-only-changed'],
    description: 'PATCH replaces the rule: fields not sent fall back to their create defaults.',
  },
  'alerts-state-filter-ignored': {
    surface: 'alerts',
    breaks: ['alerts.list.filter-state'],
    description: 'The state filter of the alert rule list is ignored.',
  },
  'alerts-enabled-filter-at-create': {
    surface: 'alerts',
    breaks: ['alerts.list.filter-enabled'],
    description: 'The enabled filter reads the value a rule was created with, so a rule disabled by PATCH stays listed for enabled=true.',
  },
  'alerts-state-filter-stale': {
    surface: 'alerts',
    breaks: ['alerts.list.filter-state'],
    description: 'The state filter finds alert rules by whether they have fired, so a rule resolved back to ok is still listed under state=alert.',
  },
  'alerts-no-data-keeps-state': {
    surface: 'alerts',
    breaks: ['alerts.state.any-to-no-data'],
    description: 'An evaluation without metric data leaves the state as it was instead of no_data.',
  },
  'alerts-resolved-alert-still-listed': {
    surface: 'alerts',
    breaks: ['alerts.active.list'],
    description: 'GET /v1/alerts lists every rule that has fired, so an alert resolved back to ok stays listed as active.',
  },
  'alerts-rule-limit-races': {
    surface: 'alerts',
    breaks: ['alerts.rules.limit-10-409'],
    description:
      "Create counts the account's rules on a replica of the monitoring backend that lags by up to a second, so creates close together (a burst " +
      'of simultaneous ones) all see room and an account ends up with more than 10.',
  },
  'alerts-threshold-int32': {
    surface: 'alerts',
    breaks: ['alerts.rules.threshold-non-negative-integer'],
    description: 'threshold_value is kept in a 32-bit integer column, so a valid value above 2147483647 (such as 4294967296) is refused as invalid.',
  },
  'alerts-sync-failure-500': {
    surface: 'alerts',
    breaks: ['alerts.errors.502-sync'],
    description: 'A monitoring backend sync failure answers 500 instead of 502.',
  },
});

/** Defects of webhook endpoints and deliveries (document 3). */
export const WebhooksDefects = defineDefects({
  'webhooks-wrong-secret': {
    surface: 'webhooks',
    breaks: ['webhooks.delivery.signed'],
    description: 'Deliveries are signed with a secret other than the one returned on creation.',
  },
  'webhooks-resolved-without-trigger': {
    surface: 'webhooks',
    breaks: ['webhooks.event.resolved'],
    description: 'alerts.resolved is sent whenever a rule enters ok, also when it never fired (unknown or no_data to ok).',
  },
  'webhooks-unsubscribed-delivery': {
    surface: 'webhooks',
    breaks: ['webhooks.delivery.subscribed-only'],
    description: 'Every endpoint of the account gets every event, subscribed or not.',
  },
  'webhooks-payload-missing-previous-state': {
    surface: 'webhooks',
    breaks: ['webhooks.payload.triggered-fields'],
    description: 'The alerts.triggered payload leaves out alert.previous_state.',
  },
  'webhooks-secret-in-list': {
    surface: 'webhooks',
    breaks: ['webhooks.endpoint.signing-secret-once'],
    description: 'The webhook endpoint list returns each signing_secret again.',
  },
});
