import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ImpersonationBanner, UserNotices } from '@/features/admin/components/ImpersonationBanner';
import type { CurrentUser } from '@/features/auth/api';
import { lazyPage } from '../lazy-page';
import { PageSuspense, SkipLink } from './PublicLayout';
import { SiteFooter } from './SiteFooter';
import { SiteHeader } from './SiteHeader';

// Luna's chat (and its Markdown renderer) is not needed to show the page: it comes after.
export const LunaWidget = lazyPage(() => import('@/features/luna/LunaWidget').then((m) => m.LunaWidget));

const FOOTER_LINKS = [
  { label: 'Home', to: '/home' },
  { label: 'Blog', to: '/blog' },
  { label: 'Payment methods', to: '/payment-methods' },
  { label: 'Contact', to: '/contact' },
];

/** Main variant, signed in: shared header and footer around every page. */
export function SignedInLayout({ user }: { user: CurrentUser }) {
  const { pathname } = useLocation();
  return (
    <>
      <SkipLink />
      <ImpersonationBanner user={user} />
      <SiteHeader user={user} />
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        <UserNotices user={user} />
        <PageSuspense>
          <Outlet />
        </PageSuspense>
      </main>
      <SiteFooter links={FOOTER_LINKS} tagline="TOTP verification at ₹0.10 per verification" />
      {/* /contact brings its own Luna (it is there for visitors too). */}
      {pathname !== '/contact' && (
        <Suspense fallback={null}>
          <LunaWidget userId={user.id} />
        </Suspense>
      )}
    </>
  );
}
