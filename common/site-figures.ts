/**
 * The landing page's live figures (issue 22, item 5): real counts from the database, rounded
 * DOWN to a readable figure ("12,000+ verifications"), and left out while too small to be worth
 * showing. One rule for the server (which rounds before anything leaves it) and the page.
 */

/**
 * Below these a figure is not shown at all: "40+ business clients" says "small", not "trusted".
 * Verifications: every recorded live check (the row stays when retention erases its details;
 * test-mode checks are not counted).
 * Business clients: businesses that have paid for credits at least once (top-ups, not grants).
 */
export const FIGURE_THRESHOLDS = { verifications: 10_000, businesses: 50 } as const;

/**
 * Rounds down to two significant digits: 12,345 → 12,000; 987 → 980; 2,512,345 → 2,500,000.
 * Never up, so the figure with its "+" is always true.
 */
export function roundDownReadable(count: number): number {
  if (!Number.isFinite(count) || count < 1) return 0;
  const whole = Math.floor(count);
  if (whole < 100) return whole;
  const step = 10 ** (String(whole).length - 2);
  return Math.floor(whole / step) * step;
}

const grouped = new Intl.NumberFormat('en-US');

/**
 * "12,000+", "980+", "2.5M+", "1.2B+" for a figure already rounded down. Millions are shown with
 * at most one decimal, cut (not rounded) so 2,590,000 reads "2.5M+".
 */
export function formatFigure(rounded: number): string {
  const compact = (value: number, unit: number, suffix: string) => {
    const tenths = Math.floor((value * 10) / unit);
    return `${tenths % 10 === 0 ? tenths / 10 : (tenths / 10).toFixed(1)}${suffix}+`;
  };
  if (rounded >= 1_000_000_000) return compact(rounded, 1_000_000_000, 'B');
  if (rounded >= 1_000_000) return compact(rounded, 1_000_000, 'M');
  return `${grouped.format(rounded)}+`;
}

export interface SiteFigures {
  /** rounded down; null while below its threshold */
  verifications: number | null;
  businesses: number | null;
}

/** What may be shown of the raw counts: rounded down, or null while below the threshold. */
export function publicFigures(raw: { verifications: number; businesses: number }): SiteFigures {
  const shown = (count: number, threshold: number) => (count >= threshold ? roundDownReadable(count) : null);
  return { verifications: shown(raw.verifications, FIGURE_THRESHOLDS.verifications), businesses: shown(raw.businesses, FIGURE_THRESHOLDS.businesses) };
}
