import { useEffect } from 'react';
import { SITE_DEFAULT_HEADS } from '@common/site-heads';

/**
 * The site's own head, put back when a page that set its title or description is left. Not
 * "whatever was there before": the server writes the first page's own head into index.html, and
 * leaving that page must not leave its title on the next one.
 */
function siteDefaults() {
  const variant = document.querySelector('meta[name="sixdigit-variant"]')?.getAttribute('content');
  return SITE_DEFAULT_HEADS[variant === 'enterprise' ? 'enterprise' : 'main'];
}

/**
 * Sets the tab title (and, when given, the meta description) while the calling page is shown,
 * so navigating inside the app keeps what the server wrote into the first page's head in step.
 */
export function useDocumentTitle(title: string, description?: string): void {
  useEffect(() => {
    document.title = title;
    return () => {
      document.title = siteDefaults().title;
    };
  }, [title]);

  useEffect(() => {
    if (description === undefined) return;
    let tag = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!tag) {
      tag = document.createElement('meta');
      tag.name = 'description';
      document.head.appendChild(tag);
    }
    tag.content = description;
    return () => {
      tag.content = siteDefaults().description;
    };
  }, [description]);
}
