import { z } from 'zod';
import { ClientEnv, IsoDateTime } from '../common.js';
import { defineErrors } from '../rule.js';

/** Concurrency granularity: every interval is a 5-minute window. */
export const CONCURRENCY_WINDOW_MS = 5 * 60 * 1000;

/** Longest allowed span between start_time and end_time: one week. */
export const MAX_SPAN_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Rounds an epoch-millisecond instant down to its 5-minute mark (how start_time is treated).
 *
 * @example
 * floorToWindow(Date.parse('2025-01-01T10:07:30Z')); // Date.parse('2025-01-01T10:05:00Z')
 */
export function floorToWindow(ms: number): number {
  return Math.floor(ms / CONCURRENCY_WINDOW_MS) * CONCURRENCY_WINDOW_MS;
}

/**
 * Rounds an epoch-millisecond instant up to its 5-minute mark (how end_time is treated); a mark stays put.
 *
 * @example
 * ceilToWindow(Date.parse('2025-01-01T10:07:30Z')); // Date.parse('2025-01-01T10:10:00Z')
 */
export function ceilToWindow(ms: number): number {
  return Math.ceil(ms / CONCURRENCY_WINDOW_MS) * CONCURRENCY_WINDOW_MS;
}

/**
 * Lower bounds (ISO 8601, UTC) of every 5-minute window a query covers: from start_time rounded
 * down up to, but not including, end_time rounded up.
 *
 * @example
 * concurrencyWindows('2025-01-01T10:07:00Z', '2025-01-01T10:12:00Z');
 * // ['2025-01-01T10:05:00.000Z', '2025-01-01T10:10:00.000Z']
 */
export function concurrencyWindows(startTime: string, endTime: string): string[] {
  const out: string[] = [];
  const end = ceilToWindow(Date.parse(endTime));
  for (let t = floorToWindow(Date.parse(startTime)); t < end; t += CONCURRENCY_WINDOW_MS) {
    out.push(new Date(t).toISOString());
  }
  return out;
}

/** `slice_by` values. Only `variant` works; `language` and `phone_number` are answered 501. */
export const ConcurrencySliceBy = z.enum(['variant', 'language', 'phone_number']);
export type ConcurrencySliceBy = z.infer<typeof ConcurrencySliceBy>;

/** `slice_by` values that work. */
export const WORKING_SLICE_BY = ['variant'] as const satisfies readonly ConcurrencySliceBy[];

/** `slice_by` values answered 501 (reserved for future slicing). */
export const NOT_IMPLEMENTED_SLICE_BY = ['language', 'phone_number'] as const satisfies readonly ConcurrencySliceBy[];

/** The concurrency query without cross-field rules (use {@link ConcurrencyQuery} to validate). */
export const ConcurrencyQueryShape = z.object({
  /** Rounded down to the 5-minute mark. */
  start_time: IsoDateTime,
  /** Rounded up to the 5-minute mark; at most one week after start_time. */
  end_time: IsoDateTime,
  client_env: ClientEnv.default('live'),
  variant_id: z.string().optional(),
  variant_name: z.string().optional(),
  language: z.string().optional(),
  phone_number: z.string().optional(),
  slice_by: ConcurrencySliceBy.optional(),
});

/**
 * The concurrency query with its documented rules: both times required, end not before start,
 * span at most one week (measured on the times as sent), at most one variant filter.
 */
export const ConcurrencyQuery = ConcurrencyQueryShape.superRefine((q, ctx) => {
  const start = Date.parse(q.start_time);
  const end = Date.parse(q.end_time);
  if (end < start) {
    ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'end_time is before start_time' });
  }
  if (end - start > MAX_SPAN_MS) {
    ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'start_time and end_time are more than one week apart' });
  }
  if (q.variant_id !== undefined && q.variant_name !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['variant_name'], message: 'send at most one of variant_id and variant_name' });
  }
});
export type ConcurrencyQuery = z.infer<typeof ConcurrencyQuery>;
/** The concurrency query as a client writes it (client_env optional). */
export type ConcurrencyQueryInput = z.input<typeof ConcurrencyQuery>;

/** A UTC ISO 8601 timestamp (offset Z or +00:00). */
export const UtcDateTime = IsoDateTime.refine((s) => /(Z|[+-]00:?00)$/i.test(s), 'time must be UTC');

/** One 5-minute interval of the series. */
export const ConcurrencyInterval = z.object({
  /** Lower bound of the window, on a 5-minute mark. */
  time: UtcDateTime.refine((s) => Date.parse(s) % CONCURRENCY_WINDOW_MS === 0, 'time must be on a 5-minute mark'),
  max_concurrent_conversations: z.number().int().nonnegative(),
  /** Present when sliced by variant. */
  variant_id: z.string().optional(),
  /** Present when sliced by variant. */
  variant_name: z.string().optional(),
  /** Reserved for future slicing. */
  language: z.string().optional(),
  /** Reserved for future slicing. */
  phone_number: z.string().optional(),
});
export type ConcurrencyInterval = z.infer<typeof ConcurrencyInterval>;

/** Concurrency response: intervals ascending by time (equal times allowed when sliced by variant). */
export const ConcurrencyResponse = z.object({
  account_id: z.string(),
  project_id: z.string(),
  intervals: z
    .array(ConcurrencyInterval)
    .refine((xs) => xs.every((x, i) => i === 0 || Date.parse(xs[i - 1]?.time ?? x.time) <= Date.parse(x.time)), 'intervals must be ascending by time'),
});
export type ConcurrencyResponse = z.infer<typeof ConcurrencyResponse>;

/** Concurrency error body. */
export const ConcurrencyErrorBody = z.object({ error_message: z.string() });
export type ConcurrencyErrorBody = z.infer<typeof ConcurrencyErrorBody>;

/** Concurrency credential header, exactly as the Authentication table writes it. */
export const ConcurrencyHeaders = {
  apiKey: 'x-api-key',
} as const;

/** The statuses document 2's Errors table gives the concurrency API, with their meaning, verbatim (one row per status). */
export const CONCURRENCY_ERROR_STATUSES = {
  400: 'Missing or invalid parameters such as a bad time range.',
  401: 'Missing, invalid or unauthorised key.',
  403: 'Missing, invalid or unauthorised key.',
  404: 'Account or project not found.',
  500: 'Internal error; 501 for slice_by language or phone_number.',
  501: 'Internal error; 501 for slice_by language or phone_number.',
} as const;

/**
 * Concurrency error catalogue. Statuses are documented; the `error_message` texts are the
 * reference target's choice. The 401/403 split (401 missing or invalid, 403 not authorised for
 * this account and project) is the reference target's reading of the "401, 403" row.
 */
export const ConcurrencyErrors = defineErrors({
  MISSING_TIME: { status: 400, text: 'start_time and end_time are required', documented: false },
  INVALID_TIME: { status: 400, text: 'start_time and end_time must be ISO 8601 timestamps', documented: false },
  BAD_TIME_RANGE: { status: 400, text: 'end_time must not be before start_time', documented: false },
  SPAN_TOO_LONG: { status: 400, text: 'start_time and end_time must be at most one week apart', documented: false },
  INVALID_PARAMETER: { status: 400, text: 'Invalid parameter', documented: false },
  MISSING_KEY: { status: 401, text: 'Missing API key', documented: false },
  INVALID_KEY: { status: 401, text: 'Invalid API key', documented: false },
  FORBIDDEN: { status: 403, text: 'API key is not authorised for this account and project', documented: false },
  NOT_FOUND: { status: 404, text: 'Account or project not found', documented: false },
  INTERNAL: { status: 500, text: 'Internal error', documented: false },
  SLICE_BY_NOT_IMPLEMENTED: { status: 501, text: 'slice_by language and phone_number are not implemented', documented: false },
});
