import { useEffect, type ReactNode } from 'react';
import { SkipLink } from '@/app/layout/PublicLayout';
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
 * The blog's own header, main landmark and footer for visitors (SPEC "Blog"; the routes put no
 * <main> around these pages: `ownChrome`); signed-in people already have the app's header, main
 * and footer around every page.
 */
export function BlogShell({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  useFeedLink();
  if (user) return <div className="flex flex-1 flex-col bg-background text-foreground">{children}</div>;
  return (
    <div className="flex flex-1 flex-col bg-background text-foreground">
      <SkipLink />
      <BlogHeader />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        {children}
      </main>
      <BlogFooter />
    </div>
  );
}
