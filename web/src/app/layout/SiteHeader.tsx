import { Menu } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import type { CurrentUser } from '@/features/auth/api';
import { cn } from '@/lib/utils';
import { Brand } from './Brand';
import { navItemsFor } from './nav-items';
import { UserMenu } from './UserMenu';

/** The signed-in header: brand, section nav (a menu button on phones) and the avatar menu. */
export function SiteHeader({ user }: { user: CurrentUser }) {
  const { pathname } = useLocation();
  const items = navItemsFor(user.isAdmin, user.role);

  return (
    <header className="sticky top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6">
        <Brand to="/home" />

        <nav aria-label="Main" className="hidden flex-1 items-center gap-1 md:flex">
          {items.map((item) => {
            const active = item.isActive(pathname);
            return (
              <Link
                key={item.to}
                to={item.to}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                  active
                    ? 'bg-accent text-accent-foreground'
                    : 'text-muted-foreground hover:bg-accent/60 hover:text-foreground',
                )}
              >
                <item.icon className="size-4" aria-hidden="true" />
                {item.label}
              </Link>
            );
          })}
        </nav>

        <div className="ml-auto flex items-center gap-1 md:ml-0">
          <DropdownMenu modal={false}>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open navigation menu">
                <Menu aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end" className="w-56">
              {items.map((item) => {
                const active = item.isActive(pathname);
                return (
                  <DropdownMenuItem
                    key={item.to}
                    asChild
                    className={cn(active && 'bg-accent font-medium text-accent-foreground')}
                  >
                    <Link to={item.to} aria-current={active ? 'page' : undefined}>
                      <item.icon aria-hidden="true" />
                      {item.label}
                    </Link>
                  </DropdownMenuItem>
                );
              })}
            </DropdownMenuContent>
          </DropdownMenu>
          <UserMenu user={user} />
        </div>
      </div>
    </header>
  );
}
