import { Link, Outlet, useLocation } from 'react-router';
import { USD_MICROS_PER_VERIFICATION, formatUsd } from '@common/pricing';
import { cn } from '@/lib/utils';
import { Brand } from './Brand';
import { SiteFooter } from './SiteFooter';
import { PageSuspense, SkipLink } from './PublicLayout';

const ENTERPRISE_NAV = [
  { label: 'Overview', to: '/', isActive: (p: string) => p === '/' },
  { label: 'Pricing', to: '/pricing', isActive: (p: string) => p.startsWith('/pricing') },
  {
    label: 'Docs',
    to: '/docs',
    isActive: (p: string) => p.startsWith('/docs') || p.startsWith('/documentation'),
  },
];

/** Enterprise variant: header and footer are always shown. */
export function EnterpriseLayout() {
  const { pathname } = useLocation();
  return (
    <>
      <SkipLink />
      <header className="sticky top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 sm:px-6">
          <Brand to="/" suffix="Enterprise" />
          <nav aria-label="Main" className="ml-auto overflow-x-auto">
            <ul className="flex items-center gap-1">
              {ENTERPRISE_NAV.map((item) => {
                const active = item.isActive(pathname);
                return (
                  <li key={item.to}>
                    <Link
                      to={item.to}
                      aria-current={active ? 'page' : undefined}
                      className={cn(
                        'inline-flex rounded-md px-2.5 py-2 text-sm font-medium whitespace-nowrap transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none sm:px-3',
                        active
                          ? 'bg-accent text-accent-foreground'
                          : 'text-muted-foreground hover:bg-accent/60 hover:text-foreground',
                      )}
                    >
                      {item.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        <PageSuspense>
          <Outlet />
        </PageSuspense>
      </main>
      <SiteFooter
        links={ENTERPRISE_NAV.map(({ label, to }) => ({ label, to }))}
        tagline={`Enterprise TOTP verification at ${formatUsd(USD_MICROS_PER_VERIFICATION)} per verification`}
      />
    </>
  );
}
