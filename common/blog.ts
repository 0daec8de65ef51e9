/**
 * The blog's articles (DESIGN.md §8): Markdown files in `content/blog/<slug>.md` with YAML front
 * matter. The web app bundles them and the server reads them (feed, sitemap, page heads), and
 * both parse them here, so a field means the same thing on both sides.
 *
 * The front matter is YAML written in its JSON-compatible subset (`key: "text"`, `key: true`,
 * `key: ["a", "b"]`), read here line by line with JSON.parse so the browser does not need a
 * YAML library (about 30 KB gzipped); a server test checks the `yaml` package reads every file
 * the same way.
 */
import { z } from 'zod';

/** Cards show at most this many tags, then "+N" (SPEC §9). */
export const CARD_TAG_LIMIT = 3;
/** A post lists at most this many related articles (SPEC §9). */
export const RELATED_LIMIT = 2;

export const ArticleMeta = z
  .object({
    title: z.string().min(1).max(160),
    excerpt: z.string().min(1).max(400),
    author: z.string().min(1),
    authorRole: z.string().min(1),
    authorBio: z.string().min(1),
    publishDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'publishDate must be YYYY-MM-DD'),
    readTime: z.string().regex(/^\d+ min read$/, 'readTime must read like "7 min read"'),
    category: z.string().min(1),
    tags: z.array(z.string().min(1)).min(1),
    featured: z.boolean().default(false),
  })
  .strict();

export type ArticleMeta = z.infer<typeof ArticleMeta>;

export interface Article extends ArticleMeta {
  slug: string;
  /** The Markdown after the front matter. */
  body: string;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/** Parses one article file; throws with the slug in the message when it is malformed. */
export function parseArticle(slug: string, raw: string): Article {
  if (!SLUG.test(slug)) throw new Error(`blog: "${slug}" is not a valid slug (lower-case words joined by hyphens)`);
  const match = FRONT_MATTER.exec(raw);
  if (!match) throw new Error(`blog: ${slug}.md has no front matter (--- … ---)`);
  const meta = ArticleMeta.safeParse(parseFrontMatter(match[1]!, slug));
  if (!meta.success) {
    throw new Error(`blog: ${slug}.md front matter: ${meta.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return { ...meta.data, slug, body: match[2]!.trim() };
}

/** `key: <JSON value>` per line (YAML's JSON-compatible subset); blank lines and # comments are skipped. */
export function parseFrontMatter(text: string, slug = 'article'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const field = /^([A-Za-z][\w-]*):\s*(.+?)\s*$/.exec(line);
    let value: unknown;
    try {
      if (!field) throw new Error('not "key: value"');
      value = JSON.parse(field[2]!);
    } catch {
      throw new Error(`blog: ${slug}.md front matter line ${index + 1} must be key: "text", true/false, a number or ["a", "b"]: ${line}`);
    }
    out[field[1]!] = value;
  }
  return out;
}

/** "…/content/blog/some-slug.md" → "some-slug". */
export function slugFromPath(path: string): string {
  return (path.split('/').pop() ?? '').replace(/\.md$/, '');
}

/** Newest first; ties by title so the order never depends on the file system. */
export function sortArticles<T extends Article>(articles: readonly T[]): T[] {
  return [...articles].sort((a, b) => b.publishDate.localeCompare(a.publishDate) || a.title.localeCompare(b.title));
}

/** Parses a set of files ({ path: text }) into articles, newest first. */
export function loadArticles(files: Record<string, string>): Article[] {
  return sortArticles(Object.entries(files).map(([path, raw]) => parseArticle(slugFromPath(path), raw)));
}

/** The featured article: the newest one marked `featured`, else the newest. */
export function featuredArticle(articles: readonly Article[]): Article | undefined {
  return sortArticles(articles).find((a) => a.featured) ?? sortArticles(articles)[0];
}

/**
 * Up to RELATED_LIMIT other articles, most related first: same category counts most, then
 * shared tags (case-insensitive), then the newer article.
 */
export function relatedArticles(article: Article, articles: readonly Article[], limit = RELATED_LIMIT): Article[] {
  const tags = new Set(article.tags.map((t) => t.toLowerCase()));
  const score = (other: Article) =>
    (other.category === article.category ? 10 : 0) + other.tags.filter((t) => tags.has(t.toLowerCase())).length;
  return sortArticles(articles)
    .filter((other) => other.slug !== article.slug)
    .map((other, index) => ({ other, index, score: score(other) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, Math.max(0, limit))
    .map(({ other }) => other);
}

/** Tags a card shows, and how many it leaves out ("+N"). */
export function cardTags(tags: readonly string[], limit = CARD_TAG_LIMIT): { shown: string[]; hidden: number } {
  return { shown: tags.slice(0, limit), hidden: Math.max(0, tags.length - limit) };
}

/** "2026-11-10" → "10 November 2026" (the date is a calendar day: no time zone shifts it). */
export function formatPublishDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d!)).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** "Where SMS codes fail" → "where-sms-codes-fail" (heading anchors). */
export function headingId(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-');
}


/** Path of an article's page. */
export function articlePath(slug: string): string {
  return `/blog/${slug}`;
}

/** The blog's page title and description (the server's page head and the app both use them). */
export const BLOG_TITLE = 'Sixdigit Blog — TOTP security, costs and integration';
export const BLOG_DESCRIPTION =
  'Articles on TOTP vs SMS security, the real cost of one-time codes, integrating the Sixdigit API and compliance for enterprise authentication.';

/** An article page's title. */
export function articlePageTitle(article: Pick<ArticleMeta, 'title'>): string {
  return `${article.title} · Sixdigit Blog`;
}
