import { publicFigures, type SiteFigures } from '@common/site-figures';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { toNumber } from '../../db/normalize';
import type { Database } from '../../db/types';

/** The landing page's figures are counted at most once an hour. */
export const FIGURES_TTL_MS = 60 * 60_000;

/** Raw counts behind the figures (common/site-figures.ts says what each one means). */
export async function countFigures(db: Kysely<Database>): Promise<{ verifications: number; businesses: number }> {
  const [verifications, businesses] = await Promise.all([
    // live checks only: test-mode checks (sk_test_ keys) are free rehearsals, not verifications served
    db.selectFrom('totp_verification').select((eb) => eb.fn.countAll<number>().as('n')).where('livemode', '=', true).executeTakeFirstOrThrow(),
    db.selectFrom('ledger_entry').select((eb) => eb.fn.count<number>('business_id').distinct().as('n')).where('kind', '=', 'top_up').executeTakeFirstOrThrow(),
  ]);
  return { verifications: toNumber(verifications.n), businesses: toNumber(businesses.n) };
}

export interface FiguresSource {
  /** The figures, rounded and thresholded; counted afresh when older than the TTL. */
  get(): Promise<SiteFigures>;
}

/**
 * Caches the figures per process. After the hour the last figures are still answered while one
 * recount runs (pages never wait on a count once the first is done); a failed count keeps the
 * last figures, or shows none before the first success.
 */
export function createFiguresSource(db: Kysely<Database>, log: FastifyBaseLogger, { ttlMs = FIGURES_TTL_MS, now = () => Date.now() } = {}): FiguresSource {
  let current: { figures: SiteFigures; at: number } | undefined;
  let counting: Promise<SiteFigures> | undefined;
  const NONE: SiteFigures = { verifications: null, businesses: null };

  const recount = () => {
    counting ??= countFigures(db)
      .then((raw) => {
        current = { figures: publicFigures(raw), at: now() };
        return current.figures;
      })
      .catch((err: unknown) => {
        log.error({ err }, 'counting the landing page figures failed');
        return current?.figures ?? NONE;
      })
      .finally(() => {
        counting = undefined;
      });
    return counting;
  };

  return {
    async get() {
      if (!current) return recount();
      if (now() - current.at >= ttlMs) void recount();
      return current.figures;
    },
  };
}
