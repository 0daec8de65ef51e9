import { sortArticles, type Article } from '@common/blog';

/** An article as the app bundles it: its body also as sanitised HTML, made at build time. */
export interface BlogArticle extends Article {
  html: string;
}

/**
 * The articles, bundled from the same Markdown files the server's feed and page heads read,
 * already parsed and rendered to HTML by the `?article` Vite plugin (scripts/vite-blog-articles.ts),
 * so no Markdown parser ships to the browser. This module is only imported by the blog's pages,
 * so the text stays out of the main chunk.
 */
const files = import.meta.glob<BlogArticle>('../../../../content/blog/*.md', { query: '?article', import: 'default', eager: true });

export const ARTICLES: readonly BlogArticle[] = sortArticles(Object.values(files)) as BlogArticle[];

export function findArticle(slug: string | undefined): BlogArticle | undefined {
  return slug ? ARTICLES.find((a) => a.slug === slug) : undefined;
}
