import { createElement, Suspense, useEffect, useState, type ReactElement } from 'react';
import { matchPath, Navigate, Route, Routes, useLocation } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { hasSessionHint, SECOND_FACTOR_PATH, secondFactorUrl, useCurrentUser, type CurrentUser } from '@/features/auth/api';
import { LandingPage } from '@/features/landing/LandingPage';
import { NotFoundPage } from '@/features/not-found/NotFoundPage';
import { EnterpriseLayout } from './layout/EnterpriseLayout';
import { OwnChromeLayout, PublicLayout } from './layout/PublicLayout';
import { lazyPage, type LazyPage } from './lazy-page';
import { PageLoadErrorBoundary } from './PageLoadErrorBoundary';
import { RequireAuth } from './RequireAuth';
import { publicPageAt } from '@common/public-pages';
import type { SiteVariant } from './variant';

/*
 * Only the landing page, the layouts' frames and the 404 page ship in the entry script. Every
 * other page is its own chunk, fetched when first shown (issue 11: public pages must not wait
 * for the signed-in app; the authenticator, admin, charts and Markdown load on demand).
 */
const SignedInLayout = lazyPage(() => import('./layout/SignedInLayout').then((m) => m.SignedInLayout));

const pages = {
  AuthenticatorPage: lazyPage(() => import('@/features/authenticator/AuthenticatorPage').then((m) => m.AuthenticatorPage)),
  HomePage: lazyPage(() => import('@/features/home/HomePage').then((m) => m.HomePage)),
  AccountTotpPage: lazyPage(() => import('@/features/account-totp/AccountTotpPage').then((m) => m.AccountTotpPage)),
  SecondFactorPage: lazyPage(() => import('@/features/auth/SecondFactorPage').then((m) => m.SecondFactorPage)),
  BusinessPage: lazyPage(() => import('@/features/business/BusinessPage').then((m) => m.BusinessPage)),
  AddCreditsPage: lazyPage(() => import('@/features/payments/AddCreditsPage').then((m) => m.AddCreditsPage)),
  QrTestPage: lazyPage(() => import('@/features/qr-test/QrTestPage').then((m) => m.QrTestPage)),
  ContactPage: lazyPage(() => import('@/features/contact/ContactPage').then((m) => m.ContactPage)),
  FinancialDeskPage: lazyPage(() => import('@/features/financial/FinancialDeskPage').then((m) => m.FinancialDeskPage)),
  AdminSetupPage: lazyPage(() => import('@/features/admin/AdminSetupPage').then((m) => m.AdminSetupPage)),
  AdminDashboardPage: lazyPage(() => import('@/features/admin/AdminDashboardPage').then((m) => m.AdminDashboardPage)),
  AdminPaymentsPage: lazyPage(() => import('@/features/admin/AdminPaymentsPage').then((m) => m.AdminPaymentsPage)),
  AdminImpersonationPage: lazyPage(() => import('@/features/admin/AdminImpersonationPage').then((m) => m.AdminImpersonationPage)),
  AdminRolesPage: lazyPage(() => import('@/features/admin/AdminRolesPage').then((m) => m.AdminRolesPage)),
  AdminAuditPage: lazyPage(() => import('@/features/admin/AdminAuditPage').then((m) => m.AdminAuditPage)),
  AdminBusinessesPage: lazyPage(() => import('@/features/admin/AdminBusinessesPage').then((m) => m.AdminBusinessesPage)),
  EmailSettingsPage: lazyPage(() => import('@/features/email/EmailSettingsPage').then((m) => m.EmailSettingsPage)),
  UnsubscribePage: lazyPage(() => import('@/features/email/UnsubscribePage').then((m) => m.UnsubscribePage)),
  PasskeySignInPage: lazyPage(() => import('@/features/passkeys/PasskeySignInPage').then((m) => m.PasskeySignInPage)),
  BlogListPage: lazyPage(() => import('@/features/blog').then((m) => m.BlogListPage)),
  BlogPostPage: lazyPage(() => import('@/features/blog').then((m) => m.BlogPostPage)),
  PaymentMethodsPage: lazyPage(() => import('@/features/payment-methods/PaymentMethodsPage').then((m) => m.PaymentMethodsPage)),
  EnterpriseLandingPage: lazyPage(() => import('@/features/enterprise/EnterpriseLandingPage').then((m) => m.EnterpriseLandingPage)),
  EnterprisePricingPage: lazyPage(() => import('@/features/enterprise/EnterprisePricingPage').then((m) => m.EnterprisePricingPage)),
  EnterpriseDocsPage: lazyPage(() => import('@/features/enterprise/EnterpriseDocsPage').then((m) => m.EnterpriseDocsPage)),
} satisfies Record<string, LazyPage>;

/** Loads every page's chunk (tests render the routes synchronously after this). */
export async function preloadAllPages(): Promise<void> {
  await Promise.all([SignedInLayout, ...Object.values(pages)].map((page) => page.preload()));
  await (await import('./layout/SignedInLayout')).LunaWidget.preload();
}

interface PageRoute {
  path: string;
  page?: LazyPage;
  redirect?: string;
  /** Signed out, the page brings its own header, main landmark and footer (the public site's). */
  ownChrome?: boolean;
}

const element = ({ page, redirect }: PageRoute): ReactElement =>
  redirect ? <Navigate to={redirect} replace /> : createElement(page!);

/**
 * Main variant, open to everyone. The admin and financial-manager pages check the role
 * themselves (SPEC §2), so their routes exist for every visitor.
 */
const PUBLIC_ROUTES: PageRoute[] = [
  { path: '/blog', page: pages.BlogListPage, ownChrome: true },
  { path: '/blog/:id', page: pages.BlogPostPage, ownChrome: true },
  { path: '/payment-methods', page: pages.PaymentMethodsPage, ownChrome: true },
  { path: '/contact', page: pages.ContactPage },
  // The second step of a sign-in (issue 19): reached half signed in, so it is not behind RequireAuth.
  { path: SECOND_FACTOR_PATH, page: pages.SecondFactorPage },
  { path: '/sign-in/passkey', page: pages.PasskeySignInPage },
  // Opened from a mail's footer, signed in or not (the token is the authority).
  { path: '/email/unsubscribe', page: pages.UnsubscribePage },
  { path: '/admin', page: pages.AdminSetupPage },
  { path: '/admin/dashboard', page: pages.AdminDashboardPage },
  { path: '/admin/payments', page: pages.AdminPaymentsPage },
  { path: '/admin/impersonation', page: pages.AdminImpersonationPage },
  { path: '/admin/roles', page: pages.AdminRolesPage },
  { path: '/admin/audit', page: pages.AdminAuditPage },
  { path: '/admin/businesses', page: pages.AdminBusinessesPage },
  // The names SPEC §2 uses for the same pages.
  { path: '/admin-dashboard', redirect: '/admin/dashboard' },
  { path: '/admin-role-management', redirect: '/admin/roles' },
  { path: '/admin-payments', redirect: '/admin/payments' },
  { path: '/financial-manager', page: pages.FinancialDeskPage },
];

/** Main variant, signed-in only; signed-out visitors are sent to /api/login?returnTo=<path>. */
const PROTECTED_ROUTES: PageRoute[] = [
  { path: '/multi-totp', page: pages.AuthenticatorPage },
  { path: '/home', page: pages.HomePage },
  { path: '/totp', page: pages.AccountTotpPage },
  { path: '/settings/email', page: pages.EmailSettingsPage },
  { path: '/business', page: pages.BusinessPage },
  { path: '/business/add-credits', page: pages.AddCreditsPage },
  { path: '/business-dashboard', redirect: '/business' },
  { path: '/testQR', page: pages.QrTestPage },
];

/** Signed in, `/` is the authenticator (SPEC §2). */
const SIGNED_IN_INDEX: PageRoute = { path: '/', page: pages.AuthenticatorPage };

const routeElements = (routes: PageRoute[]) => routes.map((route) => <Route key={route.path} path={route.path} element={element(route)} />);

function pageRoutes(signedIn: boolean, publicRoutes: PageRoute[] = PUBLIC_ROUTES) {
  return [
    ...routeElements(publicRoutes),
    ...PROTECTED_ROUTES.map((route) => (
      <Route
        key={route.path}
        path={route.path}
        element={signedIn ? element(route) : <RequireAuth>{element(route)}</RequireAuth>}
      />
    )),
    <Route key="*" path="*" element={<NotFoundPage />} />,
  ];
}

const routeAt = (pathname: string): PageRoute | undefined =>
  [SIGNED_IN_INDEX, ...PUBLIC_ROUTES, ...PROTECTED_ROUTES].find((route) => matchPath(route.path, pathname));

/**
 * Whether the signed-in app can be shown at `pathname` without a spinner: the signed-in
 * layout and that page are loaded. Until then the public view stays on screen (the landing
 * page at `/`) while both chunks are fetched together — not one after the other, which is
 * what rendering the lazy layout with the lazy page inside it would do.
 */
function useSignedInAppReady(user: CurrentUser | null, pathname: string): boolean {
  const loaded = SignedInLayout.loaded && (routeAt(pathname)?.page?.loaded ?? true);
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (!user || loaded || settled) return;
    let live = true;
    const page = routeAt(pathname)?.page;
    // Failures are shown by the error boundary once the app renders.
    void Promise.allSettled([SignedInLayout.preload(), page?.preload()]).then(() => {
      if (live) setSettled(true);
    });
    return () => {
      live = false;
    };
  }, [user, loaded, settled, pathname]);
  return loaded || settled;
}

const ENTERPRISE_PAGES: Record<string, LazyPage> = {
  '/': pages.EnterpriseLandingPage,
  '/pricing': pages.EnterprisePricingPage,
  '/docs': pages.EnterpriseDocsPage,
  '/documentation': pages.EnterpriseDocsPage,
};

/**
 * Starts fetching the chunk of the page at `pathname` before the first render, so it arrives
 * beside the entry script instead of after React has rendered the layout around it.
 */
export function preloadPageAt(variant: SiteVariant, pathname: string): Promise<void> {
  const path = pathname.replace(/(.)\/+$/, '$1');
  const page = variant === 'enterprise' ? ENTERPRISE_PAGES[path] : path === '/' ? undefined : routeAt(path)?.page;
  // A failed chunk is shown by the page's error boundary when it renders.
  return page?.preload().catch(() => undefined) ?? Promise.resolve();
}

/**
 * The pages the server renders to HTML for a signed-out visitor: the same for everyone and
 * needing no data from the API, so the first paint needs no script (issue 11, item 7). Marked
 * `prerendered` in the one list of public pages (common/public-pages.ts).
 */
export function isServerRenderedPage(variant: SiteVariant, pathname: string): boolean {
  return publicPageAt(variant, pathname)?.prerendered === true;
}

function MainRoutes() {
  // Signed out and while the session is still loading, the visitor gets the public site at
  // once: `/` is the landing page (never a bare spinner), public pages render, and protected
  // pages wait in RequireAuth. Only when the session says "signed in" does the app swap in
  // (with a session hint, non-server-rendered pages wait for it: see below).
  const { user, isLoading, secondFactorRequired } = useCurrentUser();
  const { pathname, search, hash } = useLocation();
  const signedInReady = useSignedInAppReady(user, pathname);

  // Half signed in: every page waits until the second step is done (or the person signs out).
  if (secondFactorRequired && pathname !== SECOND_FACTOR_PATH) return <Navigate to={secondFactorUrl(`${pathname}${search}${hash}`)} replace />;

  if (user && signedInReady) {
    return (
      <Routes>
        <Route element={<SignedInLayout user={user} />}>
          <Route index element={element(SIGNED_IN_INDEX)} />
          {pageRoutes(true)}
        </Route>
      </Routes>
    );
  }

  // Signed in (or about to be: the session hint), but the signed-in layout's chunk is not here
  // yet. A page mounted now in the public frame would be mounted AGAIN inside the signed-in
  // layout a moment later, losing its state: the form being typed, or the API key that
  // /business shows only once (issue 18, item 11 — the flaky "api-key-reveal" wait). Only the
  // server-rendered pages, which hold no state, keep showing meanwhile.
  // (Server-rendered pages first: the server's renderer has no document to read the hint from.)
  if (!isServerRenderedPage('main', pathname) && (user || (isLoading && hasSessionHint()))) {
    return (
      <div className="flex min-h-dvh flex-1">
        <PageSpinner label="Loading" />
      </div>
    );
  }

  return (
    <Routes>
      {/* The landing page brings its own header, main landmark and footer. */}
      <Route index element={<LandingPage />} />
      <Route element={<OwnChromeLayout />}>{routeElements(PUBLIC_ROUTES.filter((route) => route.ownChrome))}</Route>
      <Route element={<PublicLayout />}>{pageRoutes(false, PUBLIC_ROUTES.filter((route) => !route.ownChrome))}</Route>
    </Routes>
  );
}

function EnterpriseRoutes() {
  return (
    <Routes>
      <Route element={<EnterpriseLayout />}>
        <Route index element={<pages.EnterpriseLandingPage />} />
        <Route path="/pricing" element={<pages.EnterprisePricingPage />} />
        <Route path="/docs" element={<pages.EnterpriseDocsPage />} />
        <Route path="/documentation" element={<pages.EnterpriseDocsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/** Host-dependent routing (SPEC §2). */
export function AppRoutes({ variant }: { variant: SiteVariant }) {
  const { pathname } = useLocation();
  return (
    <PageLoadErrorBoundary resetKey={pathname}>
      {/* Layouts hold their own boundary around the page; this one covers the signed-in layout. */}
      <Suspense fallback={<div className="flex min-h-dvh flex-1"><PageSpinner label="Loading" /></div>}>
        {variant === 'enterprise' ? <EnterpriseRoutes /> : <MainRoutes />}
      </Suspense>
    </PageLoadErrorBoundary>
  );
}
