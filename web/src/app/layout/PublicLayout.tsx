import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';

/**
 * Main variant, signed out (or while the session is still loading): pages bring their own
 * header (the landing page, the blog). Kept apart from the signed-in layout so the public
 * pages' entry script does not carry the signed-in header, menus and Luna.
 */
export function PublicLayout() {
  return (
    <main id="main" tabIndex={-1} className="flex flex-1 flex-col outline-none">
      <PageSuspense>
        <Outlet />
      </PageSuspense>
    </main>
  );
}

/**
 * Main variant, signed out: the public site's pages that bring their own header, main landmark
 * and footer (the blog, payment methods), so those are the page's banner and contentinfo
 * landmarks rather than sections inside someone else's <main>.
 */
export function OwnChromeLayout() {
  return (
    <PageSuspense>
      <Outlet />
    </PageSuspense>
  );
}

/**
 * Where a page's chunk is awaited: inside the layout, so the header stays put. The fallback
 * fills the screen so the footer is not painted under the header and then pushed down when
 * the page arrives (a layout shift).
 */
export function PageSuspense({ children }: { children: React.ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="flex min-h-dvh flex-1">
          <PageSpinner label="Loading" />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

/** The first tab stop of every page: jumps past the header to the page's main landmark. */
export function SkipLink({ target = 'main' }: { target?: string }) {
  return (
    <a
      href={`#${target}`}
      className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      Skip to content
    </a>
  );
}
