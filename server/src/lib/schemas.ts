import { z } from 'zod';

/** A calendar day, YYYY-MM-DD (UTC), for date-range filters and exports. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'use YYYY-MM-DD')
  // JavaScript rolls 2026-02-30 over to 2 March; only real calendar days are accepted.
  .refine((d) => {
    const day = new Date(`${d}T00:00:00.000Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(d);
  }, 'not a calendar date');
