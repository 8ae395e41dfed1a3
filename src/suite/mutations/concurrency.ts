import type { Proofs } from './spec.js';

/** How each documented concurrency rule is broken from outside (found by scripts/find-mutations.ts, proven by every self-test). */
export const concurrencyProofs: Proofs = {
  'concurrency.path.v1': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 1 }, how: 'status-class' } },
  'concurrency.response.fields': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'empty' } },
  'concurrency.window.five-minute-marks': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'status-class' } },
  'concurrency.window.start-rounded-down': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'empty' } },
  'concurrency.window.end-rounded-up': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'empty' } },
  'concurrency.window.max-one-week': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'status-class' } },
  'concurrency.window.one-week-accepted': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'status-class' } },
  'concurrency.window.ascending': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'empty' } },
  'concurrency.interval.peak-after-filters': { mutation: { on: { method: 'GET', path: '/v3/*/*/conversations', nth: 0 }, how: 'empty' } },
  'concurrency.params.start-end-required': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 2 }, how: 'status-near' } },
  'concurrency.params.bad-time-range-400': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 2 }, how: 'status-near' } },
  'concurrency.filter.client-env-default-live': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 3 }, how: 'empty' } },
  'concurrency.filter.variant-xor': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'status-class' } },
  'concurrency.filter.variant': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 1 }, how: 'empty' } },
  'concurrency.filter.language-phone': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 3 }, how: 'empty' } },
  'concurrency.slice-by.variant-works': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'values' } },
  'concurrency.slice-by.language-501': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'status-near' } },
  'concurrency.slice-by.phone-number-501': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'status-near' } },
  'concurrency.errors.error-message-body': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 2 }, how: 'empty' } },
  'concurrency.errors.401-403-key': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 2 }, how: 'status-class' } },
  'concurrency.errors.404-not-found': {
    mutation: { on: { method: 'GET', path: '/v1/dialtone-no-such-account/*/conversations/concurrency', nth: 0 }, how: 'status-near' },
  },
  'concurrency.errors.500-internal': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'status-near' } },
  'concurrency.auth.analytics-permission': { mutation: { on: { method: 'GET', path: '/v1/*/*/conversations/concurrency', nth: 0 }, how: 'status-class' } },
};
