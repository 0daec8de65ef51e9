/** The public site's data (/api/site/*), no session needed. */
import { z } from 'zod';

/** GET /api/site/figures: the landing page's live figures (common/site-figures.ts); null = not shown. */
export const SiteFigures = z.object({
  verifications: z.number().int().nullable(),
  businesses: z.number().int().nullable(),
});
export type SiteFigures = z.infer<typeof SiteFigures>;
