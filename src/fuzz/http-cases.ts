import type { Route as FuzzRoute } from '../reference-target/route-table.js';
import type { FuzzRng } from './rng.js';

/** One malformed HTTP request, as raw parts; `kind` names the mutation for the totals and for replay. */
export interface FuzzRequest {
  readonly route: FuzzRoute;
  readonly kind: string;
  readonly bytes: Buffer;
}

/** What the generator knows of the target: credentials by header, and values that make path parameters valid. */
export interface FuzzKnowledge {
  /** Header name to the values worth sending (valid credentials of every surface, so requests get past auth). */
  readonly credentials: Readonly<Record<string, readonly string[]>>;
  /** Path parameter name to valid values (tenant ids, discovered agent ids, chat operations). */
  readonly params: Readonly<Record<string, readonly string[]>>;
}

const deep = (n: number, open: string, close: string, leaf = '1') => `${open.repeat(n)}${leaf}${close.repeat(n)}`;

/** Values that strain number and type handling. */
const ODD_VALUES = [
  '1e309',
  '-0',
  '1e-400',
  '9007199254740993',
  '-1',
  '2147483648',
  '1.5',
  '0',
  'null',
  'true',
  '""',
  '"\\u0000"',
  '"\\ud800"',
  '[]',
  '{}',
  `"${'x'.repeat(70_000)}"`,
  '"NaN"',
  '"Infinity"',
  '"+15550100"',
];
const FIELDS = [
  'conversation_id',
  'message',
  'channel',
  'integration_attributes',
  'variant_id',
  'language',
  'name',
  'description',
  'variables',
  'metadata',
  'streaming_enabled',
  'platform',
  'to',
  'from',
  'text',
  'limit',
  'cursor',
  'url',
  'events',
  'condition',
  'threshold',
  'behavior',
  'topics',
  'config',
  'call_sid',
  'status',
];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

function jsonObject(rng: FuzzRng, extra?: string): string {
  const parts: string[] = [];
  const n = 1 + rng.int(5);
  for (let i = 0; i < n; i++) parts.push(`"${rng.pick(FIELDS)}":${rng.pick(ODD_VALUES)}`);
  if (extra) parts.push(extra);
  return `{${parts.join(',')}}`;
}

/** Body makers: each returns [content type or undefined, body, kind]. */
const BODIES: ((rng: FuzzRng) => [string | undefined, string | Buffer, string])[] = [
  (rng) => ['application/json', jsonObject(rng), 'odd-values'],
  (rng) => {
    const depth = rng.pick([65, 200, 5_000, 10_000, 60_000]);
    const inner = rng.chance(0.5) ? deep(depth, '{"a":', '}') : deep(depth, '[', ']');
    return ['application/json', jsonObject(rng, `"${rng.pick(['integration_attributes', 'variables', 'metadata', 'config'])}":${inner}`), `deep-json-${depth}`];
  },
  (rng) => [
    'application/json',
    rng.pick(['{', '{"a":1,}', "{'a':1}", '{"a":NaN}', '\ufeff{"a":1}', '{"a":1} trailing', '/* c */{}', '{"a":"\\x"}', '[1,2', '"unterminated']),
    'broken-json',
  ],
  (rng) => [
    'application/json',
    `{"${rng.pick(PROTO_KEYS)}":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"${rng.pick(FIELDS)}":1}`,
    'prototype-keys',
  ],
  (rng) => ['application/json', `{"message":"${'a'.repeat(rng.pick([900_000, (1 << 20) + 10]))}"}`, 'huge-body'],
  (rng) => [
    rng.pick([
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'image/png',
    ]),
    jsonObject(rng),
    'wrong-content-type',
  ],
  (rng) => ['text/plain', rng.chance(0.5) ? ' '.repeat(rng.pick([3_000, 100_000, 1_000_000])) : `${'a:'.repeat(50_000)}\n`, 'text-plain-hostile'],
  (rng) => [
    'application/xml',
    rng.chance(0.5) ? '<ref '.repeat(rng.pick([1_000, 30_000])) : deep(rng.pick([1_000, 20_000]), '<a>', '</a>', 'x'),
    'xml-hostile',
  ],
  (rng) => ['application/x-www-form-urlencoded', `a=1&a=2&__proto__[x]=1&constructor=1&${'k=v&'.repeat(rng.pick([10, 10_000]))}`, 'form-duplicates'],
  (rng) => [rng.pick(['application/json', 'text/plain']), Buffer.from(Array.from({ length: 64 + rng.int(512) }, () => rng.int(256))), 'binary-garbage'],
  (rng) => [
    rng.pick(['application/json; charset=utf-16', 'application/json, text/plain', 'Application/JSON', '\u0001/\u0002', '']),
    '{"a":1}',
    'odd-content-type',
  ],
  () => [undefined, '', 'no-body'],
];

function fillPath(rng: FuzzRng, route: FuzzRoute, k: FuzzKnowledge): string {
  return route.url
    .replace(/:([A-Za-z]+)/g, (_m, name: string) => {
      const valid = k.params[name];
      if (valid?.length && rng.chance(0.75)) return rng.pick(valid);
      return rng.pick(['x', '0', '-1', '1e309', '%00', '%zz', '..', '__proto__', 'constructor', '%C0%AF', 'a'.repeat(300), '%E2%80%AE', '%2F']);
    })
    .replace('*', () => rng.pick(['v1/agents', 'x', '', '%00']));
}

/** Query strings: duplicated parameters, odd numbers, prototype keys, broken escapes. */
function query(rng: FuzzRng): string {
  if (rng.chance(0.4)) return '';
  const keys = ['limit', 'cursor', 'offset', 'start', 'end', 'account_id', 'project_id', 'page', 'q', 'sort', 'interval'];
  const vals = ['1', '-1', '0', '1e309', 'NaN', '0x10', '9007199254740993', '%zz', '', 'a'.repeat(2000), '2026-13-40', '%00', '[]'];
  const parts: string[] = [];
  const n = 1 + rng.int(6);
  for (let i = 0; i < n; i++) {
    const key = rng.chance(0.15) ? rng.pick(['__proto__', 'constructor', '__proto__[polluted]', 'constructor[prototype][x]']) : rng.pick(keys);
    parts.push(`${key}=${rng.pick(vals)}`);
    if (rng.chance(0.3)) parts.push(`${key}=${rng.pick(vals)}`); // duplicated
  }
  return `?${parts.join('&')}`;
}

/** Path-level mutations: control bytes, long URLs, broken escapes. */
const PATH_MUTATIONS: ((rng: FuzzRng, path: string) => [string, string])[] = [
  (_rng, p) => [p, 'plain-path'],
  (rng, p) => [`${p}/${'a'.repeat(rng.pick([2_000, 8_000, 70_000, 200_000]))}`, 'long-url'],
  (rng, p) => [`${p}${rng.pick(['\u0000', '\u0001', '\u007f', '\u001b[31m', '\t', '%00', '\u00ff', '\u0085'])}x`, 'control-bytes-path'],
  (_rng, p) => [`${p}//..//%2e%2e/%`, 'odd-segments'],
  (_rng, p) => [p.toUpperCase(), 'upper-case-path'],
];

function headers(rng: FuzzRng, route: FuzzRoute, k: FuzzKnowledge): [string[], string] {
  const lines: string[] = [];
  for (const [name, values] of Object.entries(k.credentials)) {
    if (values.length && rng.chance(0.6)) lines.push(`${name}: ${rng.pick(values)}`);
  }
  const kinds = ['credentials'];
  if (rng.chance(0.2)) {
    kinds.push('duplicate-headers');
    const dup = lines[rng.int(Math.max(1, lines.length))];
    if (dup) lines.push(dup.replace(/: .*/, ': dt_wrong'));
  }
  if (rng.chance(0.15)) {
    kinds.push('control-bytes-header');
    lines.push(
      `${rng.pick(['X-Api-Key', 'Authorization', 'X-Host', 'User-Agent', 'X-Dialtone-Control'])}: ` +
        `a${rng.pick(['\u0001', '\u0000', '\u007f', '\u001b', '\u00ff'])}b`,
    );
  }
  if (rng.chance(0.05)) {
    kinds.push('long-header');
    lines.push(`X-Long: ${'h'.repeat(rng.pick([4_000, 20_000]))}`);
  }
  if (rng.chance(0.05)) {
    kinds.push('many-headers');
    for (let i = 0; i < 300; i++) lines.push(`X-H${i}: ${i}`);
  }
  if (rng.chance(0.03)) {
    kinds.push('folded-header');
    lines.push('X-Folded: a', ' continued');
  }
  if (route.host === 'messaging_url' && rng.chance(0.5)) lines.push('X-Host: app.dialtone.test');
  return [lines, kinds.join('+')];
}

/** Framing: the body's length told right, twice and differently, chunked (sometimes broken), or not told. */
function frame(rng: FuzzRng, body: Buffer): [string[], Buffer, string] {
  const r = rng.int(20);
  if (r === 0) return [[`Content-Length: ${body.length}`, `Content-Length: ${body.length + 1}`], body, 'conflicting-length'];
  if (r === 1)
    return [['Transfer-Encoding: chunked'], Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]), 'chunked'];
  if (r === 2) return [['Transfer-Encoding: chunked'], Buffer.from('zz\r\nbroken\r\n'), 'broken-chunked'];
  if (r === 3) return [['Content-Length: -1'], body, 'negative-length'];
  if (r === 4) return [['Content-Length: 1e3'], body, 'odd-length'];
  return [[`Content-Length: ${body.length}`], body, 'length'];
}

/**
 * One seeded malformed request for `route`: a body maker, a path mutation, header mutations and a framing, each drawn
 * from `rng`. The bytes are raw HTTP/1.1 with `Connection: close`.
 *
 * @example
 * const req = makeRequest(new FuzzRng(1), route, knowledge, 'localhost');
 */
export function makeRequest(rng: FuzzRng, route: FuzzRoute, k: FuzzKnowledge, hostHeader: string): FuzzRequest {
  const [contentType, rawBody, bodyKind] = rng.pick(BODIES)(rng);
  const [path, pathKind] = rng.pick(PATH_MUTATIONS)(rng, fillPath(rng, route, k));
  const [headerLines, headerKind] = headers(rng, route, k);
  const method = rng.chance(0.9) ? route.method : rng.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'BREW', 'G\u0001T']);
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : rawBody;
  const [framing, framed, frameKind] = body.length ? frame(rng, body) : [[], body, 'empty'];
  const lines = [`${method} ${path}${query(rng)} HTTP/1.1`, `Host: ${hostHeader}`, ...headerLines];
  if (contentType !== undefined) lines.push(`Content-Type: ${contentType}`);
  lines.push(...framing, 'Connection: close', '', '');
  return {
    route,
    kind: [bodyKind, pathKind, headerKind, frameKind].join(' '),
    bytes: Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), framed]),
  };
}
