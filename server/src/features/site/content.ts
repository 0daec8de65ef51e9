import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadArticles, type Article } from '@common/blog';
import { projectPath } from '../../lib/paths';

/** `content/blog/` at the root of the repository: the same files the web app bundles. */
export const BLOG_DIR = projectPath('content', 'blog');

let cached: Article[] | undefined;

/** Every article, newest first. Read once per process: the files ship with the release. */
export function blogArticles(dir = BLOG_DIR): Article[] {
  if (dir !== BLOG_DIR) return readArticles(dir);
  cached ??= readArticles(dir);
  return cached;
}

function readArticles(dir: string): Article[] {
  const files = Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.endsWith('.md'))
      .map((name) => [join(dir, name), readFileSync(join(dir, name), 'utf8')]),
  );
  return loadArticles(files);
}

export function findArticle(slug: string): Article | undefined {
  return blogArticles().find((a) => a.slug === slug);
}
