import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { parseArticle, slugFromPath } from '../common/blog.ts';
import { articleHtml } from '../common/blog-html.ts';

/** `content/blog/<slug>.md?article` — what web/src/features/blog/articles.ts imports. */
const ARTICLE = /[\\/]content[\\/]blog[\\/][^\\/]+\.md\?article$/;

/**
 * Serves each blog article as a module whose default export is the parsed article plus its body
 * as sanitised HTML (common/blog-html.ts), so the browser gets HTML strings and never loads a
 * Markdown parser. Front matter errors fail the build (and the tests) instead of the page.
 */
export function blogArticles(): Plugin {
  return {
    name: 'sixdigit:blog-articles',
    enforce: 'pre',
    load(id) {
      if (!ARTICLE.test(id)) return null;
      const file = id.slice(0, id.indexOf('?'));
      this.addWatchFile(file);
      const article = parseArticle(slugFromPath(file), readFileSync(file, 'utf8'));
      return { code: `export default ${JSON.stringify({ ...article, html: articleHtml(article.body) })};`, map: null };
    },
  };
}
