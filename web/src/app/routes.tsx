import type { ReactElement } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { useCurrentUser } from '@/features/auth/api';
import { EnterpriseDocsPage } from '@/features/enterprise/EnterpriseDocsPage';
import { EnterpriseLandingPage } from '@/features/enterprise/EnterpriseLandingPage';
import { EnterprisePricingPage } from '@/features/enterprise/EnterprisePricingPage';
import { AdminAuditPage } from '@/features/admin/AdminAuditPage';
import { AdminBusinessesPage } from '@/features/admin/AdminBusinessesPage';
import { AdminDashboardPage } from '@/features/admin/AdminDashboardPage';
import { AdminImpersonationPage } from '@/features/admin/AdminImpersonationPage';
import { AdminPaymentsPage } from '@/features/admin/AdminPaymentsPage';
import { AdminRolesPage } from '@/features/admin/AdminRolesPage';
import { AdminSetupPage } from '@/features/admin/AdminSetupPage';
import { AuthenticatorPage } from '@/features/authenticator/AuthenticatorPage';
import { BlogListPage, BlogPostPage } from '@/features/blog';
import { AccountTotpPage } from '@/features/account-totp/AccountTotpPage';
import { BusinessPage } from '@/features/business/BusinessPage';
import { ContactPage } from '@/features/contact/ContactPage';
import { FinancialDeskPage } from '@/features/financial/FinancialDeskPage';
import { HomePage } from '@/features/home/HomePage';
import { LandingPage } from '@/features/landing/LandingPage';
import { NotFoundPage } from '@/features/not-found/NotFoundPage';
import { PaymentMethodsPage } from '@/features/payment-methods/PaymentMethodsPage';
import { AddCreditsPage } from '@/features/payments/AddCreditsPage';
import { QrTestPage } from '@/features/qr-test/QrTestPage';
import { EnterpriseLayout } from './layout/EnterpriseLayout';
import { PublicLayout, SignedInLayout } from './layout/SignedInLayout';
import { RequireAuth } from './RequireAuth';
import type { SiteVariant } from './variant';

interface PageRoute {
  path: string;
  element: ReactElement;
}

/**
 * Main variant, open to everyone. The admin and financial-manager pages check the role
 * themselves (SPEC §2), so their routes exist for every visitor.
 */
const PUBLIC_ROUTES: PageRoute[] = [
  { path: '/blog', element: <BlogListPage /> },
  { path: '/blog/:id', element: <BlogPostPage /> },
  { path: '/payment-methods', element: <PaymentMethodsPage /> },
  { path: '/contact', element: <ContactPage /> },
  { path: '/admin', element: <AdminSetupPage /> },
  { path: '/admin/dashboard', element: <AdminDashboardPage /> },
  { path: '/admin/payments', element: <AdminPaymentsPage /> },
  { path: '/admin/impersonation', element: <AdminImpersonationPage /> },
  { path: '/admin/roles', element: <AdminRolesPage /> },
  { path: '/admin/audit', element: <AdminAuditPage /> },
  { path: '/admin/businesses', element: <AdminBusinessesPage /> },
  // The names SPEC §2 uses for the same pages.
  { path: '/admin-dashboard', element: <Navigate to="/admin/dashboard" replace /> },
  { path: '/admin-role-management', element: <Navigate to="/admin/roles" replace /> },
  { path: '/admin-payments', element: <Navigate to="/admin/payments" replace /> },
  { path: '/financial-manager', element: <FinancialDeskPage /> },
];

/** Main variant, signed-in only; signed-out visitors are sent to /api/login?returnTo=<path>. */
const PROTECTED_ROUTES: PageRoute[] = [
  { path: '/multi-totp', element: <AuthenticatorPage /> },
  { path: '/home', element: <HomePage /> },
  { path: '/totp', element: <AccountTotpPage /> },
  { path: '/business', element: <BusinessPage /> },
  { path: '/business/add-credits', element: <AddCreditsPage /> },
  { path: '/business-dashboard', element: <Navigate to="/business" replace /> },
  { path: '/testQR', element: <QrTestPage /> },
];

function pageRoutes(user: boolean) {
  return [
    ...PUBLIC_ROUTES.map(({ path, element }) => <Route key={path} path={path} element={element} />),
    ...PROTECTED_ROUTES.map(({ path, element }) => (
      <Route key={path} path={path} element={user ? element : <RequireAuth>{element}</RequireAuth>} />
    )),
    <Route key="*" path="*" element={<NotFoundPage />} />,
  ];
}

function MainRoutes() {
  const { user, isLoading } = useCurrentUser();

  if (isLoading) {
    return (
      <div className="flex min-h-dvh flex-1">
        <PageSpinner label="Loading" />
      </div>
    );
  }

  if (user) {
    return (
      <Routes>
        <Route element={<SignedInLayout user={user} />}>
          <Route index element={<AuthenticatorPage />} />
          {pageRoutes(true)}
        </Route>
      </Routes>
    );
  }

  return (
    <Routes>
      {/* The landing page brings its own header, main landmark and footer. */}
      <Route index element={<LandingPage />} />
      <Route element={<PublicLayout />}>{pageRoutes(false)}</Route>
    </Routes>
  );
}

function EnterpriseRoutes() {
  return (
    <Routes>
      <Route element={<EnterpriseLayout />}>
        <Route index element={<EnterpriseLandingPage />} />
        <Route path="/pricing" element={<EnterprisePricingPage />} />
        <Route path="/docs" element={<EnterpriseDocsPage />} />
        <Route path="/documentation" element={<EnterpriseDocsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/** Host-dependent routing (SPEC §2). */
export function AppRoutes({ variant }: { variant: SiteVariant }) {
  return variant === 'enterprise' ? <EnterpriseRoutes /> : <MainRoutes />;
}
