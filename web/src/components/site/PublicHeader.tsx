import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { MenuIcon, XIcon } from 'lucide-react';
import { BrandMark } from '@/app/layout/Brand';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { CONTAINER } from './container';
import { SIGN_IN_HREF, SiteAnchor, type SiteLink } from './links';

const NAV_LINK = 'rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground';
const MENU_LINK = 'block rounded-md px-3 py-3 text-base font-medium text-foreground hover:bg-accent hover:text-accent-foreground';

/**
 * The signed-out visitor's sticky top bar (landing page, blog): brand, the page's links (a
 * disclosure menu on phones), Login and Get Started. Signed-in people have the app's header.
 */
export function PublicHeader({ links }: { links: readonly SiteLink[] }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);

  // Listeners only while the menu is open, and only in an effect (the header is also rendered on the server).
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        menuButton.current?.focus();
      }
    };
    // The menu button disappears at md; a menu left open there would hang under the full nav.
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
            {links.map((link) => (
              <li key={link.label}>
                <SiteAnchor link={link} className={NAV_LINK} />
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
              {links.map((link) => (
                <li key={link.label}>
                  <SiteAnchor link={link} onNavigate={() => setMenuOpen(false)} className={MENU_LINK} />
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>
    </header>
  );
}
