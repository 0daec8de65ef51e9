import { useEffect, type ReactNode } from 'react';
import { useCurrentUser } from '@/features/auth/api';
import { BlogFooter, BlogHeader } from './BlogChrome';

const FEED_HREF = '/blog/feed.xml';

/** Keeps <link rel="alternate"> to the feed in the head while a blog page is shown (the server writes it on first load). */
function useFeedLink(): void {
  useEffect(() => {
    if (document.head.querySelector(`link[rel="alternate"][href$="${FEED_HREF}"]`)) return;
    const link = document.createElement('link');
    link.rel = 'alternate';
    link.type = 'application/rss+xml';
    link.title = 'Sixdigit Blog';
    link.href = FEED_HREF;
    document.head.appendChild(link);
    return () => link.remove();
  }, []);
}

/**
 * The blog's own header and footer for visitors (SPEC "Blog"); signed-in people already have
 * the app's header and footer around every page.
 */
export function BlogShell({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  useFeedLink();
  return (
    <div className="flex flex-1 flex-col bg-background text-foreground">
      {!user && <BlogHeader />}
      <div className="flex-1">{children}</div>
      {!user && <BlogFooter />}
    </div>
  );
}
