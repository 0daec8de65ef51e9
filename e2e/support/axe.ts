/**
 * axe-core in the browser tests (issue 11): a page must have no serious or critical
 * accessibility violation (WCAG 2.x A/AA rules and axe's best practices).
 *
 *   await expectNoSeriousA11yViolations(page);                  // after the page has settled
 *   await expectNoSeriousA11yViolations(page, { label: 'pricing, slider moved' });
 *
 * A failure lists every violation with its rule, what is wrong, where (CSS selector) and how
 * to fix it, so the report can be read without opening the browser.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export interface AxeCheckOptions {
  /** names the state in the failure message (default: the page's path) */
  label?: string;
  /** CSS selectors to leave out, e.g. a third-party frame we do not control */
  exclude?: string[];
}

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const FAILING_IMPACTS = new Set(['serious', 'critical']);

export interface A11yViolation {
  rule: string;
  impact: string;
  help: string;
  helpUrl: string;
  nodes: { target: string; summary: string }[];
}

/** The serious and critical axe violations on the page as it is now. */
export async function seriousA11yViolations(page: Page, options: AxeCheckOptions = {}): Promise<A11yViolation[]> {
  let builder = new AxeBuilder({ page }).withTags(TAGS);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => FAILING_IMPACTS.has(v.impact ?? ''))
    .map((v) => ({
      rule: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(' '), summary: n.failureSummary?.replace(/\s+/g, ' ').trim() ?? '' })),
    }));
}

export function formatViolations(where: string, violations: A11yViolation[]): string {
  const lines = [`axe: ${violations.length} serious/critical accessibility violation(s) on ${where}:`];
  for (const v of violations) {
    lines.push(`- [${v.impact}] ${v.rule}: ${v.help} (${v.helpUrl})`);
    for (const node of v.nodes.slice(0, 5)) lines.push(`    at ${node.target}${node.summary ? ` — ${node.summary}` : ''}`);
    if (v.nodes.length > 5) lines.push(`    … and ${v.nodes.length - 5} more`);
  }
  return lines.join('\n');
}

/** Fails (throws) with a readable list when axe finds serious or critical violations. */
export async function expectNoSeriousA11yViolations(page: Page, options: AxeCheckOptions = {}): Promise<void> {
  const violations = await seriousA11yViolations(page, options);
  if (violations.length === 0) return;
  const where = options.label ?? new URL(page.url()).pathname;
  throw new Error(formatViolations(where, violations));
}
