import { createSigningSecret } from '../../contract/webhooks/shapes.js';
import type { Family } from '../agent-interface/shared-state.js';
import type { TargetContext } from '../context.js';
import { Deliverer } from './delivery.js';
import { EndpointStore } from './endpoint-store.js';
import { type EvaluationOptions, evaluateRule, isDue, type Transition } from './evaluation.js';
import { payloadFor } from './payloads.js';
import { RuleStore, type StoredRule } from './rule-store.js';

/** How often (real time) the timer looks for rules that are due; due-ness itself is on the target clock. */
const TICK_MS = 1_000;

/**
 * The monitoring side of one target: alert rules, webhook endpoints, the evaluation (on demand and
 * on a timer) and the deliveries it sends. `close()` stops the timer and every pending delivery.
 */
export class Monitor {
  readonly rules: RuleStore;
  readonly endpoints: EndpointStore;
  readonly deliverer: Deliverer;
  /** Accounts whose monitoring backend is failing (set through the control surface). */
  readonly syncFailures = new Set<string>();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly ctx: TargetContext,
    private readonly family: Family,
  ) {
    this.rules = new RuleStore(ctx.rng);
    this.endpoints = new EndpointStore(ctx.rng);
    this.deliverer = new Deliverer(ctx.clock, ctx.rng);
    this.#timer = setInterval(() => void this.tick(), TICK_MS);
    this.#timer.unref();
  }

  get #options(): EvaluationOptions {
    const d = this.ctx.defects;
    return {
      strictGreater: d.has('alerts-threshold-strict-greater'),
      noDataKeepsState: d.has('alerts-no-data-keeps-state'),
      resolvedOnAnyOk: d.has('webhooks-resolved-without-trigger'),
      keepsFiringAfterResolve: d.has('alerts-resolved-alert-still-listed') || d.has('alerts-state-filter-stale'),
    };
  }

  #evaluate(rules: Iterable<StoredRule>, now: number): Transition[] {
    const out: Transition[] = [];
    for (const rule of rules) {
      const t = evaluateRule(rule, this.family.metrics, now, !this.syncFailures.has(rule.accountId), this.#options);
      if (t) out.push(t);
    }
    return out;
  }

  /** Evaluates every enabled rule of an account now; resolves once each delivery's first attempt has ended. */
  async evaluateAccount(accountId: string): Promise<{ transitions: Transition[]; deliveries: number }> {
    const now = this.ctx.clock.now();
    const transitions = this.#evaluate(
      this.rules.forAccount(accountId).filter((r) => r.enabled),
      now,
    );
    const sends = this.#dispatch(transitions, now);
    await Promise.allSettled(sends);
    return { transitions, deliveries: sends.length };
  }

  /** The timer's pass: evaluates the rules that are due, without waiting for deliveries. */
  tick(): void {
    const now = this.ctx.clock.now();
    const due = [...this.rules.all()].filter((r) => isDue(r, now));
    this.#dispatch(this.#evaluate(due, now), now);
  }

  /** Sends each transition's event to the endpoints of the rule's account subscribed to it. */
  #dispatch(transitions: readonly Transition[], now: number): Promise<void>[] {
    const d = this.ctx.defects;
    const nowIso = new Date(now).toISOString();
    const sends: Promise<void>[] = [];
    for (const t of transitions) {
      const payload = payloadFor(t, nowIso, { dropPreviousState: d.has('webhooks-payload-missing-previous-state') });
      if (!payload) continue;
      const body = JSON.stringify(payload);
      for (const e of this.endpoints.forAccount(t.rule.accountId)) {
        if (!e.event_types.includes(payload.event_type) && !d.has('webhooks-unsubscribed-delivery')) continue;
        const secret = () => (d.has('webhooks-wrong-secret') ? createSigningSecret() : e.signing_secret);
        sends.push(this.deliverer.send({ endpointId: e.id, accountId: e.accountId, url: e.url, secret }, body));
      }
    }
    return sends;
  }

  close(): void {
    clearInterval(this.#timer);
    this.deliverer.close();
  }
}
