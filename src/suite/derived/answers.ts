import type { Exchange } from '../../clients/exchange.js';
import { rulesHeld, shapeIssues } from '../../contract/conforms.js';
import { type EventShape, SOCKET_EVENTS } from '../../contract/events.js';
import { Rules } from '../../contract/index.js';
import type { ListFacts } from '../../contract/lists.js';
import { retryAfterSeconds } from '../../contract/messaging/shapes.js';
import { OPS, type Op } from '../../contract/operations.js';

/**
 * One derived check as a case saw it: how many answers it judged, and the first that broke it. Derived checks run on
 * every answer and event of every case, so a shape the documents give is checked on every operation that returns it,
 * not only where a hand-written case looks.
 */
export interface DerivedTally {
  readonly rule: string;
  /** What is checked, as a sentence: `POST /api/v1/sessions answers its documented shape`. */
  readonly what: string;
  /** What it judges one of: an HTTP answer or a socket event. */
  readonly unit: 'answer' | 'event';
  seen: number;
  failure?: { readonly documented: string; readonly received: string };
}

/** A case's derived checks by key (`rule|what`). */
export type DerivedTallies = Record<string, DerivedTally>;

/** An operation's path as a pattern: its `{placeholders}` one segment each, matched at the end of a URL's path. */
const patternOf = (op: Op) =>
  new RegExp(
    `${op.path
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );
const MATCHERS = OPS.map((op) => ({ op, method: op.method.toUpperCase(), pattern: patternOf(op) }));

/** The documented operation an exchange is, by method and path (the most specific where two match). */
export function operationOf(method: string, url: string): Op | undefined {
  const path = pathOf(url);
  const found = MATCHERS.filter((m) => m.method === method.toUpperCase() && m.pattern.test(path));
  return found.sort((a, b) => b.op.path.replace(/\{\w+\}/g, '').length - a.op.path.replace(/\{\w+\}/g, '').length)[0]?.op;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

const parseJson = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

const short = (s: string, n = 240) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** Counts one judged answer under its check, keeping the first failure. */
function tally(into: DerivedTallies, rule: string, what: string, failure?: DerivedTally['failure'], unit: DerivedTally['unit'] = 'answer'): void {
  const key = `${rule}|${what}`;
  into[key] ??= { rule, what, unit, seen: 0 };
  const t = into[key];
  t.seen++;
  if (failure && !t.failure) t.failure = failure;
}

/** A body judged against a documented shape: each rule its issues name fails, the others pass. */
function judgeShape(into: DerivedTallies, shape: EventShape, value: unknown, what: string, where: string, unit: DerivedTally['unit'] = 'answer'): void {
  const issues = shapeIssues(shape.schema, value, shape.rule);
  const rules = new Set([shape.rule, ...rulesHeld(shape.schema, value), ...issues.map((i) => i.rule)]);
  for (const rule of rules) {
    const mine = issues.filter((i) => i.rule === rule);
    tally(
      into,
      rule,
      what,
      mine.length === 0
        ? undefined
        : { documented: Rules[rule as keyof typeof Rules]?.statement ?? rule, received: `${where}: ${mine.map((i) => `${i.path}: ${i.message}`).join('; ')}` },
      unit,
    );
  }
}

const surfaceOf = (rule: string) => Rules[rule as keyof typeof Rules]?.surface;

const time = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : typeof v === 'number' ? v : Number.NaN);

/**
 * A list answer judged by what the documents say of the list: each filter the request sent (or its documented default)
 * keeps only items that hold it, the items are in the documented order, and a cap is never passed. A filter that no
 * item of the answer can be judged by is not counted: an empty answer judges nothing.
 */
function judgeList(into: DerivedTallies, list: ListFacts, body: unknown, query: URLSearchParams, name: string, where: string): void {
  const items = list.items(body);
  if (!items || items.length === 0) return;
  const statement = (rule: string) => Rules[rule as keyof typeof Rules]?.statement ?? rule;
  for (const [param, filter] of Object.entries(list.filters)) {
    if (filter.when && !Object.entries(filter.when).every(([k, v]) => query.get(k) === v)) continue;
    const sent = query.getAll(param);
    const values = sent.length > 0 ? sent : filter.default ? [filter.default.value] : undefined;
    if (!values) continue;
    const rule = sent.length > 0 ? filter.rule : (filter.default?.rule ?? filter.rule);
    const verdicts = items.map((item) => filter.holds(item, values, query));
    if (verdicts.every((v) => v === undefined)) continue;
    const bad = verdicts.indexOf(false);
    const what = sent.length > 0 ? `${name} with ${param} returns only the items it selects` : `${name} without ${param} returns only ${param} ${values[0]}`;
    tally(
      into,
      rule,
      what,
      bad < 0
        ? undefined
        : { documented: statement(rule), received: `${where}: item ${bad} ${short(JSON.stringify(items[bad]), 300)} for ${param}=${values.join(',')}` },
    );
  }
  if (list.order && items.length > 1) {
    const { key, direction, rule } = list.order;
    const keys = items.map((i) => time(i[key]));
    const bad = keys.findIndex(
      (k, i) =>
        i > 0 &&
        !Number.isNaN(k) &&
        !Number.isNaN(keys[i - 1] as number) &&
        (direction === 'ascending' ? k < (keys[i - 1] as number) : k > (keys[i - 1] as number)),
    );
    tally(
      into,
      rule,
      `${name} lists its items ${direction} by ${key}`,
      bad < 0 ? undefined : { documented: statement(rule), received: `${where}: ${key} ${String(items[bad - 1]?.[key])} then ${String(items[bad]?.[key])}` },
    );
  }
  const cap = list.cap ? Number(query.get(list.cap.param) ?? Number.NaN) : Number.NaN;
  if (list.cap && Number.isInteger(cap) && cap > 0) {
    tally(
      into,
      list.cap.rule,
      `${name} returns no more items than ${list.cap.param}`,
      items.length <= cap ? undefined : { documented: statement(list.cap.rule), received: `${where}: ${items.length} items for ${list.cap.param}=${cap}` },
    );
  }
}

/** The derived checks of one HTTP answer: its success shape, its documented error body and its documented headers. */
function checkHttp(into: DerivedTallies, ex: Exchange, op: Op, surface: string): void {
  const name = `${op.method.toUpperCase()} ${op.path}`;
  const where = `${ex.status} ${ex.method} ${pathOf(ex.url)} ${short(ex.responseBody)}`;
  const body = () => parseJson(ex.responseBody);
  if (ex.status >= 200 && ex.status < 300 && op.shape && surfaceOf(op.shape.rule) === surface) {
    const schema = op.shape.schema ?? op.ok.schema;
    if (!schema) return;
    const parsed = body();
    const what = `${name} answers its documented shape`;
    if (!parsed.ok) tally(into, op.shape.rule, what, { documented: Rules[op.shape.rule].statement, received: `${where}: not JSON` });
    else {
      judgeShape(into, { schema, rule: op.shape.rule }, parsed.value, what, where);
      if (op.list) judgeList(into, op.list, parsed.value, new URL(ex.url, 'http://x').searchParams, name, where);
    }
    return;
  }
  const { errors } = op;
  if (ex.status >= 400 && errors.bodyRule && errors.body.documented && surfaceOf(errors.bodyRule) === surface) {
    const parsed = body();
    const what = `${name} errors carry the documented error body`;
    if (!parsed.ok) tally(into, errors.bodyRule, what, { documented: Rules[errors.bodyRule].statement, received: `${where}: not JSON` });
    else judgeShape(into, { schema: errors.body.schema, rule: errors.bodyRule }, parsed.value, what, where);
  }
  const headers = errors.headers?.[ex.status];
  if (headers && errors.headersRule && surfaceOf(errors.headersRule) === surface) {
    for (const header of Object.keys(headers)) {
      const value = Object.entries(ex.responseHeaders).find(([k]) => k.toLowerCase() === header.toLowerCase())?.[1];
      const seconds = retryAfterSeconds(value, ex.responseHeaders.date);
      const fine = value !== undefined && seconds !== undefined;
      tally(
        into,
        errors.headersRule,
        `${name} ${ex.status} carries ${header} as delta-seconds or an HTTP date`,
        fine
          ? undefined
          : { documented: `${ex.status} ${headers[header]}`, received: `${where}: ${header} ${value === undefined ? 'absent' : JSON.stringify(value)}` },
      );
    }
  }
}

/** The frames a socket exchange received: messaging frames are kept as they came, voice frames in its response body. */
function receivedFrames(ex: Exchange): string[] {
  if (ex.frames) return ex.frames.filter((f) => f.dir === 'received').map((f) => f.data);
  return ex.responseBody
    .split('\n')
    .filter((l) => l.startsWith('← '))
    .map((l) => l.slice(2));
}

/** The derived checks of the events a socket received: each frame's envelope, then its type's documented shape. */
function checkFrames(into: DerivedTallies, ex: Exchange, surface: string): void {
  const socket = SOCKET_EVENTS.find((s) => pathOf(ex.url).endsWith(s.path));
  if (!socket || surfaceOf(socket.envelope.rule) !== surface) return;
  for (const raw of receivedFrames(ex)) {
    // A frame the wire log cut cannot be judged.
    if (/… \(\d+ bytes\)$/.test(raw)) continue;
    const parsed = parseJson(raw);
    const where = `frame ${short(raw)}`;
    if (!parsed.ok) {
      const failure = { documented: Rules[socket.envelope.rule].statement, received: `${where}: not JSON` };
      tally(into, socket.envelope.rule, `${socket.path} events are JSON with the documented envelope`, failure, 'event');
      continue;
    }
    judgeShape(into, socket.envelope, parsed.value, `${socket.path} events are JSON with the documented envelope`, where, 'event');
    const type = (parsed.value as { type?: unknown } | null)?.type;
    const shape = typeof type === 'string' ? socket.byType[type] : undefined;
    if (shape) judgeShape(into, shape, parsed.value, `${socket.path} ${type} events have their documented shape`, where, 'event');
  }
}

/**
 * Runs the derived checks on every answer and received event of a case's wire log, counting into `into`. Only checks
 * whose rule belongs to the case's own surface: the self-test gives each surface a target with its own defect, so an
 * answer judges only the surface whose target sent it.
 *
 * @example
 * const tallies: DerivedTallies = {};
 * checkAnswers(t.log, 'chat', tallies);
 */
export function checkAnswers(log: readonly Exchange[], surface: string, into: DerivedTallies): void {
  for (const ex of log) {
    if (ex.unanswered !== undefined) continue;
    if (ex.status === 101 || ex.frames) {
      checkFrames(into, ex, surface);
      continue;
    }
    const op = operationOf(ex.method, ex.url);
    if (op) checkHttp(into, ex, op, surface);
  }
}
