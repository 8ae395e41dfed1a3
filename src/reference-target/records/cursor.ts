import { createHash } from 'node:crypto';

/** What a keyset cursor holds: the last record returned and the filters of the walk. */
export interface CursorKey {
  readonly startedAt: number;
  readonly id: string;
  /** Fingerprint of the filters the cursor was made for. */
  readonly filters: string;
}

const VERSION = 'c1';
const digest = (s: string, n: number) => createHash('sha256').update(s).digest('base64url').slice(0, n);

/**
 * Encodes a keyset cursor: opaque to clients, with a checksum so a cut or edited cursor is
 * recognised as malformed rather than read as another position.
 *
 * @example
 * const c = encodeCursor({ startedAt: 1_700_000_000_000, id: 'conv-1', filters: 'abc' });
 * decodeCursor(c); // { startedAt: 1700000000000, id: 'conv-1', filters: 'abc' }
 */
export function encodeCursor(key: CursorKey): string {
  const body = Buffer.from(JSON.stringify([key.startedAt, key.id, key.filters])).toString('base64url');
  return `${VERSION}.${body}.${digest(body, 10)}`;
}

/**
 * Decodes a cursor; undefined when it is malformed (wrong version, bad checksum, bad contents).
 *
 * @example
 * decodeCursor('not-a-cursor'); // undefined
 */
export function decodeCursor(cursor: string): CursorKey | undefined {
  const [version, body, check, ...rest] = cursor.split('.');
  if (version !== VERSION || !body || !check || rest.length > 0 || digest(body, 10) !== check) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 3) return undefined;
    const [startedAt, id, filters] = v as unknown[];
    if (typeof startedAt !== 'number' || !Number.isFinite(startedAt) || typeof id !== 'string' || typeof filters !== 'string') return undefined;
    return { startedAt, id, filters };
  } catch {
    return undefined;
  }
}

/**
 * A fingerprint of the filters a walk keeps identical. Page size, offset, the cursor itself and
 * display flags (include_latency…) are left out: they may change between pages.
 *
 * @example
 * filterFingerprint({ client_env: 'live', channel: ['CHAT'] }) === filterFingerprint({ channel: ['CHAT'], client_env: 'live' }); // true
 */
export function filterFingerprint(filters: Readonly<Record<string, unknown>>): string {
  const canonical = Object.keys(filters)
    .filter((k) => filters[k] !== undefined)
    .sort()
    .map((k) => {
      const v = filters[k];
      return [k, Array.isArray(v) ? [...v].map(String).sort() : v];
    });
  return digest(JSON.stringify(canonical), 12);
}
