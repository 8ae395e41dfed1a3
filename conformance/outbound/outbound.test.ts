import type { Response } from '../../src/clients/exchange.js';
import { OutboundAudit, type OutboundOperation } from '../../src/contract/outbound/audit.js';
import {
  CALL_SID_PREFIX,
  isForwardTransition,
  isTerminalStatus,
  OUTBOUND_RETENTION_MS,
  OutboundHeaders,
  type OutboundStatus,
  OutboundTriggerResponse,
} from '../../src/contract/outbound/shapes.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { perOperation } from '../../src/suite/per-operation.js';
import { realTime, sleep, sleepUntil } from '../../src/suite/slow.js';
import { ageMinutes, destination, lifecycle, placeCall, poll, statusesOf } from './calls.js';

const needs = { needs: ['control'] } as const;

rule('outbound.path.v1', 'starts calls with POST /v1/outbound-calling and polls them at /v1/outbound-calling/{call_sid}/status', async (api) => {
  const sid = await placeCall(api);
  const p = await poll(api, sid);
  api.check.success(p.res, 'the status path answers 2xx');
});

rule('outbound.trigger.e164-destination', 'accepts an E.164 destination and refuses one that is not', async (api) => {
  api.check.success(await api.t.calls.trigger({ to_number: destination() }), 'an E.164 destination starts a call');
  for (const to of ['07700900123', '447700900123', '+0447700900123', '+44 7700 900123', 'not a number']) {
    api.check.rejected(await api.t.calls.trigger({ to_number: to }), `"${to}" is not E.164: rejected`);
  }
});

rule('outbound.trigger.optional-metadata-encryption', 'accepts a trigger without metadata and encryption, and with either', async (api) => {
  api.check.success(await api.t.calls.trigger({ to_number: destination() }), 'neither');
  api.check.success(await api.t.calls.trigger({ to_number: destination(), metadata: { booking_ref: 'B-1042', reason: 'reminder' } }), 'with metadata');
  api.check.success(await api.t.calls.trigger({ to_number: destination(), encryption: { scheme: 'aes-256-gcm', key_id: 'kid-1' } }), 'with encryption');
});

rule('outbound.trigger.call-sid-prefix', 'answers a trigger with a call_sid starting OUT-', async (api) => {
  const sid = await placeCall(api);
  api.check.that(sid.startsWith(CALL_SID_PREFIX) && sid.length > CALL_SID_PREFIX.length, 'call_sid starts with OUT-', sid);
});

rule('outbound.trigger.field-names', 'records the field names of the trigger answer and the status answer', async (api) => {
  const to = destination();
  const res = await api.t.calls.trigger({ to_number: to });
  const sid = String((res.json as { call_sid?: unknown } | undefined)?.call_sid);
  api.observe('trigger request', ['to_number', 'metadata', 'encryption']);
  api.observe('trigger answer', Object.keys((res.json as object) ?? {}));
  api.observe('status answer', Object.keys(((await poll(api, sid)).res.json as object) ?? {}));
});

rule('outbound.status.enum', 'polls only queued, calling, success or failure', async (api) => {
  const polls = await lifecycle(api, await placeCall(api), 1);
  api.check.that(
    polls.every((p) => p.status !== undefined),
    'every poll names one of the four statuses',
    polls.map((p) => (p.res.json as { status?: unknown } | undefined)?.status),
  );
});

rule(
  'outbound.status.queued',
  'shows queued before the call is placed',
  async (api) => {
    const polls = await lifecycle(api, await placeCall(api, 'success'));
    api.check.equal(polls[0]?.status, 'queued', 'queued right after the trigger');
    const firstOther = polls.findIndex((p) => p.status !== 'queued');
    api.check.that(
      polls.slice(firstOther).every((p) => p.status !== 'queued'),
      'never queued again once it moved on',
      statusesOf(polls),
    );
  },
  needs,
);

rule(
  'outbound.status.calling',
  'shows calling while the call is being placed, between queued and the outcome',
  async (api) => {
    const polls = await lifecycle(api, await placeCall(api, 'success'));
    const s = statusesOf(polls);
    const i = s.indexOf('calling');
    api.check.that(
      i > 0 && s.slice(0, i).every((x) => x === 'queued') && s.slice(i).every((x) => x !== 'queued'),
      'calling comes after queued and before the outcome',
      s,
    );
  },
  needs,
);

rule(
  'outbound.status.success',
  'shows success for a call that connected and completed',
  async (api) => {
    const polls = await lifecycle(api, await placeCall(api, 'success'));
    api.check.equal(polls.at(-1)?.status, 'success', 'success once the connected call completed');
  },
  needs,
);

rule(
  'outbound.status.failure',
  'shows failure for a call that failed to connect or was not answered',
  async (api) => {
    const polls = await lifecycle(api, await placeCall(api, 'failure'));
    api.check.equal(polls.at(-1)?.status, 'failure', 'failure once the call was not connected');
  },
  needs,
);

rule(
  'outbound.transition.connected-success',
  'moves a placed call that connects and completes to success',
  async (api) => {
    const s = statusesOf(await lifecycle(api, await placeCall(api, 'success')));
    api.check.that(s.includes('calling') && s.at(-1) === 'success', 'calling, then success', s);
  },
  needs,
);

rule(
  'outbound.transition.not-connected-failure',
  'moves a placed call that does not connect to failure',
  async (api) => {
    const s = statusesOf(await lifecycle(api, await placeCall(api, 'failure')));
    api.check.that(s.includes('calling') && s.at(-1) === 'failure', 'calling, then failure', s);
  },
  needs,
);

rule(
  'outbound.transition.terminal-final',
  'keeps success or failure on every later poll until the status is removed',
  async (api) => {
    for (const outcome of ['success', 'failure'] as const) {
      const sid = await placeCall(api, outcome);
      await lifecycle(api, sid);
      const later: (string | undefined)[] = [];
      // Polls spread over 45 minutes: well inside the retention, whatever "about 2 hours" allows.
      for (let i = 0; i < 4; i++) {
        later.push((await poll(api, sid)).status);
        await ageMinutes(api, sid, 15);
      }
      api.check.that(
        later.every((s) => s === outcome),
        `${outcome} on every later poll`,
        later,
      );
    }
  },
  needs,
);

rule('outbound.transition.forward-only', 'never shows a status earlier in queued, calling, success or failure than one already seen', async (api) => {
  const polls = await lifecycle(api, await placeCall(api), 3);
  const s = polls.map((p) => p.status).filter((x): x is OutboundStatus => x !== undefined);
  const back = s.findIndex((x, i) => i > 0 && x !== s[i - 1] && !isForwardTransition(s[i - 1] as OutboundStatus, x));
  api.check.that(back === -1, 'each change moves forward', s);
});

rule('outbound.transition.initial-and-queue-moves', 'records the status right after a trigger and the moves before the outcome', async (api) => {
  const to = destination();
  const res = await api.t.calls.trigger({ to_number: to });
  const sid = String((res.json as { call_sid?: unknown } | undefined)?.call_sid);
  const first = await poll(api, sid);
  api.observe('first poll after the trigger', first.status ?? first.res.status);
  if (api.t.capabilities.has('control')) api.observe('reference timing', 'queued for 1 s, calling for 2 s, then the outcome');
});

rule(
  'outbound.status.retained-about-2h',
  'keeps a finished call’s status retrievable for about 2 hours after it ends',
  async (api) => {
    const sid = await placeCall(api, 'success');
    await lifecycle(api, sid);
    await ageMinutes(api, sid, 105);
    const p = await poll(api, sid);
    api.check.status(p.res, 200, 'an hour and 45 minutes after the end, the status is still retrievable');
    api.check.equal((p.res.json as { call_sid?: unknown } | undefined)?.call_sid, sid, 'the status of this call');
  },
  needs,
);

rule(
  'outbound.status.404-after-retention',
  'answers 404 for a finished call’s status about 2 hours after it ended',
  async (api) => {
    const sid = await placeCall(api, 'failure');
    await lifecycle(api, sid);
    await ageMinutes(api, sid, 135);
    api.check.status((await poll(api, sid)).res, 404, '2 hours and 15 minutes after the end: 404');
  },
  needs,
);

rule('outbound.status.404-unknown-call', 'answers 404 for a call_sid that was never issued', async (api) => {
  api.check.status((await poll(api, `${CALL_SID_PREFIX}dialtone-never-issued`)).res, 404, 'an unknown call: 404');
});

/** How each outbound operation is sent with an overridden service token (the status poll on a call of its own). */
const SEND_WITH_TOKEN: Record<OutboundOperation, (api: CaseApi) => Promise<(token: string | undefined) => Promise<Response<unknown>>>> = {
  'POST /v1/outbound-calling':
    async ({ t }) =>
    (token) =>
      t.calls.trigger({ to_number: destination() }, { headers: { [OutboundHeaders.serviceAuthToken]: token } }),
  'GET /v1/outbound-calling/{call_sid}/status': async (api) => {
    const sid = await placeCall(api);
    return (token) => api.t.calls.status(sid, { headers: { [OutboundHeaders.serviceAuthToken]: token } });
  },
};

perOperation(OutboundAudit.credentials, {
  'outbound.auth.service-token': {
    sentence: 'rejects outbound requests without X-Service-Auth-Token or with a token not issued for the project',
    body: async (api, operation) => {
      const send = await SEND_WITH_TOKEN[operation](api);
      for (const [why, token] of [
        ['without a token', undefined],
        ['with a wrong token', 'dialtone-not-a-real-token'],
      ] as const) {
        api.check.rejected(await send(token), `${operation} ${why} is rejected`);
      }
    },
  },
});

rule('outbound.errors.rejections-not-success', 'does not answer success to a trigger that is not E.164, has no token or has no body', async (api) => {
  const answers = {
    'a destination that is not E.164': await api.t.calls.trigger({ to_number: '07700900123' }),
    'no service token': await api.t.calls.trigger({ to_number: destination() }, { headers: { [OutboundHeaders.serviceAuthToken]: undefined } }),
    'no body': await api.t.calls.trigger(undefined),
  };
  for (const [why, res] of Object.entries(answers)) api.check.notSuccess(res, `a trigger with ${why} is an error, not a success`);
});

rule('outbound.errors.other-codes', 'records the statuses and bodies of outbound errors other than 404', async (api) => {
  const bad = await api.t.calls.trigger({ to_number: '07700900123' });
  const noToken = await api.t.calls.trigger({ to_number: destination() }, { headers: { [OutboundHeaders.serviceAuthToken]: undefined } });
  const noBody = await api.t.calls.trigger(undefined);
  api.observe('not E.164', `${bad.status} ${bad.text.slice(0, 120)}`);
  api.observe('no token', `${noToken.status} ${noToken.text.slice(0, 120)}`);
  api.observe('no body', `${noBody.status} ${noBody.text.slice(0, 120)}`);
});

rule('outbound.limits.rate', 'records whether a burst of triggers is limited', async (api) => {
  // Every trigger's outcome, a missing answer included: one that fails must not hide the nine others.
  const settled = await Promise.allSettled(Array.from({ length: 10 }, () => api.t.calls.trigger({ to_number: destination() })));
  api.observe(
    'statuses of 10 concurrent triggers',
    settled.map((s) => (s.status === 'fulfilled' ? s.value.status : `no answer: ${(s.reason as Error).message}`)),
  );
});

// --- retention in real time (--slow) ---------------------------------------------------------------------
// The same rules as the control variants above, checked on any target by waiting instead of ageing. A call is placed
// as any client places one (no script and no manual time, even on the reference target) and polled until it ends.
// "About 2 hours" is taken as 2 hours ± 15 minutes, as above: still there 1 h 45 min after the end, 404 at 2 h 15 min.
// What stays control-only: the cases that need an outcome forced (success and failure, each), and queued and calling,
// which a real call may pass between two polls.

const MINUTE = 60_000;
const RETENTION_MARGIN_MS = 15 * MINUTE;
const STILL_THERE_MS = OUTBOUND_RETENTION_MS - RETENTION_MARGIN_MS;
const GONE_MS = OUTBOUND_RETENTION_MS + RETENTION_MARGIN_MS;
/** Later polls of terminal-final: four over 45 minutes, as above. */
const LATER_POLLS = 4;
const LATER_POLL_GAP_MS = 15 * MINUTE;

/** A finished call: its outcome, and the wall-clock bounds of its end (after `endedAfter`, by `endedBy`). */
interface Ended {
  readonly sid: string;
  readonly outcome: OutboundStatus;
  readonly endedAfter: number;
  readonly endedBy: number;
}

/** Places a call without any script and polls it in real time (backoff to 2 s, about two minutes at most) until it ends. */
async function endedCall(api: CaseApi): Promise<Ended> {
  let endedAfter = Date.now();
  const res = await api.t.calls.trigger({ to_number: destination() });
  api.check.success(res, 'the call is started');
  const { call_sid: sid } = api.check.schema(res, OutboundTriggerResponse, 'call_sid');
  const seen: (string | undefined)[] = [];
  for (let step = 0; step < 70; step++) {
    const asked = Date.now();
    const p = await poll(api, sid);
    seen.push(p.status ?? `(${p.res.status})`);
    api.check.status(p.res, 200, 'the status is retrievable while the call is placed');
    if (p.status && isTerminalStatus(p.status)) return { sid, outcome: p.status, endedAfter, endedBy: Date.now() };
    endedAfter = asked;
    await sleep(Math.min(250 * 1.5 ** step, 2000));
  }
  api.check.that(false, 'the call ends in success or failure', seen);
  throw new Error('unreachable: the check above fails');
}

rule(
  'outbound.transition.terminal-final',
  'in real time: keeps the outcome a real call reached on every poll over the 45 minutes after it ended',
  async (api) => {
    const call = await endedCall(api);
    const later: (string | undefined)[] = [];
    for (let i = 0; i < LATER_POLLS; i++) {
      await sleepUntil(call.endedBy + i * LATER_POLL_GAP_MS, 'outbound.transition.terminal-final: the next poll');
      later.push((await poll(api, call.sid)).status);
    }
    api.check.that(
      later.every((s) => s === call.outcome),
      `${call.outcome} on every later poll`,
      later,
    );
  },
  realTime((LATER_POLLS - 1) * LATER_POLL_GAP_MS),
);

rule(
  'outbound.status.retained-about-2h',
  'in real time: keeps a finished call’s status retrievable 1 hour 45 minutes after it ended',
  async (api) => {
    const call = await endedCall(api);
    // At most 1 h 45 min after the end: the call had not ended when the last poll before its end was sent.
    await sleepUntil(call.endedAfter + STILL_THERE_MS, 'outbound.status.retained-about-2h: 1 h 45 min after the call ended');
    api.timing('since the end (at most)', Date.now() - call.endedAfter);
    const p = await poll(api, call.sid);
    api.check.status(p.res, 200, 'an hour and 45 minutes after the end, the status is still retrievable');
    api.check.equal((p.res.json as { call_sid?: unknown } | undefined)?.call_sid, call.sid, 'the status of this call');
  },
  realTime(STILL_THERE_MS),
);

rule(
  'outbound.status.404-after-retention',
  'in real time: answers 404 for a finished call’s status 2 hours and 15 minutes after it ended',
  async (api) => {
    const call = await endedCall(api);
    // At least 2 h 15 min after the end: the call had ended when the first poll that showed it came back.
    await sleepUntil(call.endedBy + GONE_MS, 'outbound.status.404-after-retention: 2 h 15 min after the call ended');
    api.timing('since the end (at least)', Date.now() - call.endedBy);
    api.check.status((await poll(api, call.sid)).res, 404, '2 hours and 15 minutes after the end: 404');
  },
  realTime(GONE_MS),
);
