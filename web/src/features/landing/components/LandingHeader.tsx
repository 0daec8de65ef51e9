import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { MenuIcon, XIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { CONTAINER, NAV_ITEMS, SIGN_IN_HREF, type NavItem } from '../content';
import { BrandMark } from '@/app/layout/Brand';

function NavLink({ item, className, onNavigate }: { item: NavItem; className?: string; onNavigate?: () => void }) {
  if (item.href.startsWith('#')) {
    return (
      <a href={item.href} className={className} onClick={onNavigate}>
        {item.label}
      </a>
    );
  }
  return (
    <Link to={item.href} className={className} onClick={onNavigate}>
      {item.label}
    </Link>
  );
}

/** Sticky top bar: brand, section anchors (a menu on phones), Login and Get Started. */
export function LandingHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        menuButton.current?.focus();
      }
    };
    const onResize = () => {
      if (window.matchMedia?.('(min-width: 768px)').matches) setMenuOpen(false);
    };
    window.addEventListener('keydown', onKeyDown);
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('resize', onResize);
    };
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className={cn(CONTAINER, 'flex h-16 items-center gap-6')}>
        <Link to="/" className="flex shrink-0 items-center gap-2 rounded-md text-base font-semibold tracking-tight">
          <BrandMark className="size-8" />
          <span>Sixdigit</span>
        </Link>

        <nav aria-label="Primary" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {NAV_ITEMS.map((item) => (
              <li key={item.href}>
                <NavLink
                  item={item}
                  className="rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground"
                />
              </li>
            ))}
          </ul>
        </nav>

        <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
          <Button asChild variant="ghost" size="sm" className="px-2.5 sm:px-3">
            <a href={SIGN_IN_HREF}>Login</a>
          </Button>
          <Button asChild size="sm">
            <a href={SIGN_IN_HREF}>Get Started</a>
          </Button>
          <Button
            ref={menuButton}
            type="button"
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <XIcon aria-hidden="true" /> : <MenuIcon aria-hidden="true" />}
          </Button>
        </div>
      </div>

      <div id={menuId} hidden={!menuOpen} className="border-t bg-background md:hidden">
        {menuOpen && (
          <nav aria-label="Site menu" className={cn(CONTAINER, 'py-2')}>
            <ul className="flex flex-col">
              {NAV_ITEMS.map((item) => (
                <li key={item.href}>
                  <NavLink
                    item={item}
                    onNavigate={() => setMenuOpen(false)}
                    className="block rounded-md px-3 py-3 text-base font-medium text-foreground hover:bg-accent hover:text-accent-foreground"
                  />
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>
    </header>
  );
}
