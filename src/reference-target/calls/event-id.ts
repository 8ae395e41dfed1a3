import { type EventIdLocation, ExternalEventsContentType, readDottedPath } from '../../contract/external-events/shapes.js';

/** A webhook body as received: its media type (parameters dropped) and its bytes as text. */
export interface RawBody {
  readonly contentType: ExternalEventsContentType;
  readonly text: string;
}

/**
 * The media type of a Content-Type header, when it is one the webhook accepts.
 *
 * @example
 * mediaType('application/json; charset=utf-8'); // 'application/json'
 * mediaType('application/pdf'); // undefined
 */
export function mediaType(header: string | undefined): ExternalEventsContentType | undefined {
  const t = ExternalEventsContentType.safeParse((header ?? '').split(';')[0]?.trim().toLowerCase());
  return t.success ? t.data : undefined;
}

/**
 * The text of the first element named `name` (attributes allowed), or undefined. Plain index scans, no regular
 * expression: each search starts where the last ended, so a hostile body costs time linear in its length.
 */
function element(xml: string, name: string): string | undefined {
  const open = `<${name}`;
  const close = `</${name}>`;
  for (let p = xml.indexOf(open); p >= 0; p = xml.indexOf(open, p + 1)) {
    const next = xml.charAt(p + open.length);
    if (next !== '>' && !/\s/.test(next)) continue; // a longer name that starts with this one
    const tagEnd = xml.indexOf('>', p + open.length);
    if (tagEnd < 0) return undefined;
    const end = xml.indexOf(close, tagEnd + 1);
    return end < 0 ? undefined : xml.slice(tagEnd + 1, end);
  }
  return undefined;
}

/** The value of the first `name=value` or `name: value` line (the first `=` or `:` splits; both sides trimmed). */
function plainTextField(text: string, name: string): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    const eq = line.indexOf('=');
    const colon = line.indexOf(':');
    const at = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
    if (at > 0 && line.slice(0, at).trim() === name) return line.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * Reads a name or dotted path out of a payload, per content type (the reference target's choice
 * for xml and text/plain, whose reading the document does not show):
 * JSON follows the path into nested objects; a form field is read by its literal name, then as a
 * path; XML follows nested elements (`booking.ref` is `<booking><ref>…</ref></booking>`); plain
 * text is `name=value` or `name: value` lines, read by literal name.
 *
 * @example
 * readPayloadPath({ contentType: 'application/xml', text: '<booking><ref>B-1</ref></booking>' }, 'booking.ref'); // 'B-1'
 */
export function readPayloadPath(body: RawBody, path: string, literalOnly = false): unknown {
  const follow = (v: unknown) => (literalOnly ? (v as Record<string, unknown> | null)?.[path] : readDottedPath(v, path));
  const READERS: Record<ExternalEventsContentType, () => unknown> = {
    'application/json': () => {
      try {
        return follow(JSON.parse(body.text));
      } catch {
        return undefined; // opaque: a body that is not JSON simply holds no event id
      }
    },
    'application/x-www-form-urlencoded': () => {
      const fields = Object.fromEntries(new URLSearchParams(body.text));
      return fields[path] ?? follow(fields);
    },
    'application/xml': () => {
      let scope: string | undefined = body.text;
      for (const segment of literalOnly ? [path] : path.split('.')) scope = scope === undefined ? undefined : element(scope, segment);
      return scope?.trim();
    },
    'text/plain': () => plainTextField(body.text, path),
  };
  return READERS[body.contentType]();
}

/** Where a webhook's event id may be: its headers, its query string, its payload. */
export interface WebhookParts {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: RawBody;
}

/**
 * The event id at `event_id_location` and `event_id_path`; undefined when there is none. A number
 * counts as an id (JSON payloads often carry numeric references); an object or array does not.
 *
 * @example
 * locateEventId('querystring', 'ref', { headers: {}, query: { ref: 'E-1' }, body }); // 'E-1'
 */
export function locateEventId(location: EventIdLocation, path: string, parts: WebhookParts, literalOnly = false): string | { invalid: unknown } | undefined {
  const LOCATIONS: Record<EventIdLocation, () => unknown> = {
    headers: () => parts.headers[path.toLowerCase()],
    querystring: () => parts.query[path],
    payload: () => readPayloadPath(parts.body, path, literalOnly),
  };
  const v = LOCATIONS[location]();
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return { invalid: v };
}
