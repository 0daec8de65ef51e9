import { loadArticles, type Article } from '@common/blog';

/**
 * The articles, bundled from the same Markdown files the server's feed and page heads read.
 * This module is only imported by the blog's pages, so the text stays out of the main chunk.
 */
const files = import.meta.glob<string>('../../../../content/blog/*.md', { query: '?raw', import: 'default', eager: true });

export const ARTICLES: readonly Article[] = loadArticles(files);

export function findArticle(slug: string | undefined): Article | undefined {
  return slug ? ARTICLES.find((a) => a.slug === slug) : undefined;
}
