/**
 * Pieces every contract module uses. Nothing here (or anywhere in common/contract) may import
 * server or web code: both sides import these schemas.
 */
import { z } from 'zod';

/** Text we store: PostgreSQL text cannot hold U+0000, so refuse it on both engines alike. */
export const storableText = () => z.string().refine((s) => !s.includes('\u0000'), 'must not contain NUL (U+0000) characters');

/**
 * A moment as an ISO-8601 string (`Date#toISOString()`). Services turn their `Date`s into strings
 * before answering: the response serialiser validates, it does not convert.
 */
export const isoDateTime = z.string();

/** Rupees as a decimal string, e.g. "123.40" (money is integer paise inside; this is the display form). */
export const rupees = z.string();

/** A calendar day, YYYY-MM-DD (UTC), for date-range filters and exports. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'use YYYY-MM-DD')
  // JavaScript rolls 2026-02-30 over to 2 March; only real calendar days are accepted.
  .refine((d) => {
    const day = new Date(`${d}T00:00:00.000Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(d);
  }, 'not a calendar date');

/** The answer of a route that answers 204 with no body. */
export const NoContent = z.undefined();

/** `{ ok: true }`, the answer of several writes that have nothing else to say. */
export const Ok = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof Ok>;
