import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  CHANNEL_PRICES,
  COMPARISON_VOLUMES,
  ENTERPRISE_COMPETITORS,
  ENTERPRISE_PLANS,
  LANDING_PLANS,
  LOW_BALANCE_THRESHOLD_PAISE,
  MIN_PAYMENT_PAISE,
  PAISE_PER_VERIFICATION,
  TOP_UP_PACKS,
  USD_MICROS_PER_VERIFICATION,
  effectiveUsdPerVerification,
  formatRupees,
  formatUsd,
  monthlyComparison,
  roiSavings,
} from '@common/pricing';
import { parseArticle, parseFrontMatter, relatedArticles } from '@common/blog';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorEnvelope, GenerateBody, GenerateResponse, ProfileResponse, TestResponse, VerifyBody, VerifyResponse } from '../verify/schemas';
import { BLOG_DIR, blogArticles } from './content';

const articles = blogArticles();
const bySlug = (slug: string) => articles.find((a) => a.slug === slug)!;

/** Every rupee and dollar figure the catalogue defines or derives, as people read them. */
function catalogueFigures(): Set<string> {
  const rupees = new Set<number>([PAISE_PER_VERIFICATION, MIN_PAYMENT_PAISE, LOW_BALANCE_THRESHOLD_PAISE]);
  for (const p of TOP_UP_PACKS) rupees.add(p.amountPaise);
  for (const p of LANDING_PLANS) if (p.amountPaise !== null) rupees.add(p.amountPaise);
  for (const c of CHANNEL_PRICES) rupees.add(c.lowPaise).add(c.highPaise);
  for (const volume of COMPARISON_VOLUMES) {
    const m = monthlyComparison(volume);
    rupees.add(m.sixdigitPaise);
    for (const c of m.channels) rupees.add(c.lowPaise).add(c.highPaise).add(c.savingLowPaise).add(c.savingHighPaise);
  }
  const dollars = new Set<number>([USD_MICROS_PER_VERIFICATION]);
  for (const c of ENTERPRISE_COMPETITORS) dollars.add(c.usdMicrosPerVerification);
  for (const p of ENTERPRISE_PLANS) {
    if (p.priceUsdMicros !== null) dollars.add(p.priceUsdMicros);
    const effective = effectiveUsdPerVerification(p);
    if (effective !== null) dollars.add(Math.round(effective * 1_000_000));
  }
  const roi = roiSavings(1_000_000);
  dollars.add(roi.sixdigitMonthlyUsdMicros).add(roi.sixdigitAnnualUsdMicros);
  for (const c of roi.competitors) dollars.add(c.monthlyCostUsdMicros).add(c.monthlySavingsUsdMicros).add(c.annualSavingsUsdMicros);
  return new Set([...[...rupees].map((p) => formatRupees(p)), ...[...dollars].map((m) => formatUsd(m))]);
}

/** "₹0.20–₹0.25" → ["₹0.20", "₹0.25"]; "$3,800" → ["$3,800"]. Shell variables ($SIXDIGIT…) are not figures. */
function figuresIn(text: string): string[] {
  return [...text.matchAll(/[₹$]\d[\d,]*(?:\.\d+)?/g)].map((m) => m[0].replace(/\.$/, ''));
}

const words = (text: string) => text.split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length;

describe('the blog articles (content/blog/*.md)', () => {
  it('are the four of SPEC.md, with totp-vs-sms-security the one featured article', () => {
    expect(articles.map((a) => a.slug).sort()).toEqual(['cost-analysis-authentication', 'enterprise-security-compliance', 'implementing-totp-api', 'totp-vs-sms-security']);
    expect(articles.filter((a) => a.featured).map((a) => a.slug)).toEqual(['totp-vs-sms-security']);
  });

  it('are each a real article\'s length, with a read time that matches it', () => {
    for (const a of articles) {
      const count = words(a.body);
      expect(count, a.slug).toBeGreaterThanOrEqual(900);
      expect(count, a.slug).toBeLessThanOrEqual(1700);
      // About 200 words a minute, code and tables read slower: within 2 minutes of words/200.
      const minutes = Number(a.readTime.split(' ')[0]);
      expect(Math.abs(minutes - count / 200), a.slug).toBeLessThanOrEqual(2.5);
    }
  });

  it('quote only prices the pricing catalogue defines or derives (common/pricing.ts)', () => {
    const allowed = catalogueFigures();
    for (const a of articles) {
      const found = figuresIn(`${a.title}\n${a.excerpt}\n${a.body}`);
      const unknown = found.filter((f) => !allowed.has(f));
      expect(unknown, `${a.slug} quotes figures not in the catalogue`).toEqual([]);
    }
    // The check really reads the articles: the cost analysis quotes the packs and the channels.
    const cost = figuresIn(bySlug('cost-analysis-authentication').body);
    for (const p of TOP_UP_PACKS) expect(cost).toContain(formatRupees(p.amountPaise));
    expect(cost).toContain(formatRupees(PAISE_PER_VERIFICATION));
    expect(figuresIn(bySlug('enterprise-security-compliance').body)).toContain(formatUsd(USD_MICROS_PER_VERIFICATION));
  });

  it('a figure that is not in the catalogue is caught', () => {
    const allowed = catalogueFigures();
    expect(figuresIn('SMS costs ₹0.35 and we charge ₹0.10; $0.0040 abroad').filter((f) => !allowed.has(f))).toEqual(['₹0.35', '$0.0040']);
  });

  it('the implementation guide shows only real request and response shapes of the API (DESIGN §5)', () => {
    const guide = bySlug('implementing-totp-api').body;
    const shapes = [GenerateBody, VerifyBody, GenerateResponse.strict(), VerifyResponse.strict(), ProfileResponse.strict(), TestResponse.strict(), ErrorEnvelope];
    const blocks = [...guide.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks) {
      const value: unknown = JSON.parse(block);
      expect(shapes.some((s: z.ZodType) => s.safeParse(value).success), block).toBe(true);
    }
    // Request bodies written inline (cURL -d, JSON.stringify, json.dumps) are valid too.
    const curlBodies = [...guide.matchAll(/-d '([^']*)'/g)].map((m) => JSON.parse(m[1]!));
    expect(curlBodies.length).toBeGreaterThan(0);
    for (const body of curlBodies) expect(GenerateBody.safeParse(body).success || VerifyBody.safeParse(body).success).toBe(true);
    expect(VerifyBody.safeParse({ user_id: 'user_42', totp_code: '123456', purpose: 'login' }).success).toBe(true);
    expect(guide).toContain('JSON.stringify({ user_id: userId, totp_code: code, purpose: \'login\' })');
    expect(guide).toContain('json.dumps({"user_id": user_id, "totp_code": code, "purpose": "login"})');
    expect(VerifyBody.safeParse({ user_id: 'user_42', backup_code: 'k7m2-9qx4' }).success).toBe(true);
    expect(guide).toContain('`{"user_id": "user_42", "backup_code": "k7m2-9qx4"}`');
  });

  it('link only to pages and articles that exist', () => {
    const slugs = new Set(articles.map((a) => a.slug));
    for (const a of articles) {
      for (const [, href] of a.body.matchAll(/\]\((\/[^)\s]*)\)/g)) {
        const post = /^\/blog\/(.+)$/.exec(href!);
        if (post) expect(slugs.has(post[1]!), `${a.slug} → ${href}`).toBe(true);
        else expect(['/payment-methods', '/contact', '/blog'], `${a.slug} → ${href}`).toContain(href);
      }
    }
  });

  it('each have related articles, never themselves, at most two', () => {
    for (const a of articles) {
      const related = relatedArticles(a, articles);
      expect(related).toHaveLength(2);
      expect(related.map((r) => r.slug)).not.toContain(a.slug);
    }
  });

  it('have front matter that a YAML parser reads exactly as the app\'s line parser does', () => {
    for (const name of readdirSync(BLOG_DIR).filter((f) => f.endsWith('.md'))) {
      const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(BLOG_DIR, name), 'utf8'))![1]!;
      expect(parseFrontMatter(front), name).toEqual(parseYaml(front));
    }
    expect(() => parseFrontMatter('title: Unquoted text')).toThrow(/line 1/);
  });

  it('refuse a file with missing or malformed front matter', () => {
    expect(() => parseArticle('x', '# no front matter')).toThrow(/no front matter/);
    expect(() => parseArticle('x', '---\ntitle: "Only a title"\n---\nBody')).toThrow(/excerpt/);
    expect(() => parseArticle('Bad Slug', '---\n---\n')).toThrow(/slug/);
  });
});
