import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { isInternalHref } from '@common/hrefs';
import { isPlainPrimaryClick } from '@/lib/clicks';
import type { BlogArticle } from '../articles';

/**
 * An article's body: HTML made from its Markdown at build time and sanitised there
 * (common/blog-html.ts), so no Markdown is parsed in the browser. Links to the app's own pages
 * navigate client-side, like a router `Link`.
 */
export function ArticleBody({ article }: { article: Pick<BlogArticle, 'html'> }) {
  const navigate = useNavigate();

  // One listener for every link in the HTML (they are not React elements). A modified or
  // non-primary click keeps the browser's behaviour (new tab, new window, download).
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (!isPlainPrimaryClick(event)) return;
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    const href = link?.getAttribute('href');
    if (!link || !href || !isInternalHref(href) || (link.target && link.target !== '_self') || link.hasAttribute('download')) return;
    event.preventDefault();
    void navigate(href);
  };

  return <div className="text-base text-foreground/90 [&>*:first-child]:mt-0" onClick={onClick} dangerouslySetInnerHTML={{ __html: article.html }} />;
}
