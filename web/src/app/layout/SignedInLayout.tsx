import { Outlet, useLocation } from 'react-router';
import { ImpersonationBanner, UserNotices } from '@/features/admin/components/ImpersonationBanner';
import type { CurrentUser } from '@/features/auth/api';
import { LunaWidget } from '@/features/luna/LunaWidget';
import { SiteFooter } from './SiteFooter';
import { SiteHeader } from './SiteHeader';

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
        <Outlet />
      </main>
      <SiteFooter links={FOOTER_LINKS} tagline="TOTP verification at ₹0.10 per verification" />
      {/* /contact brings its own Luna (it is there for visitors too). */}
      {pathname !== '/contact' && <LunaWidget userId={user.id} />}
    </>
  );
}

/** Main variant, signed out: pages bring their own header (the landing page, the blog). */
export function PublicLayout() {
  return (
    <main id="main" tabIndex={-1} className="flex flex-1 flex-col outline-none">
      <Outlet />
    </main>
  );
}

export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      Skip to content
    </a>
  );
}
