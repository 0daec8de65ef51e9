import type { ComponentProps, MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { isInternalHref } from '@common/hrefs';
import { isPlainPrimaryClick } from '@/lib/clicks';

/** Where every sign-in button on the public pages goes (a full page load: the server owns it). */
export const SIGN_IN_HREF = '/api/login';
/** The machine-readable API reference (what the business dashboard's "API docs" opens). */
export const OPENAPI_HREF = '/api/v1/openapi.json';

/** Scrolls to the element with this id as soon as it is on the page (the landing renders after navigation). */
function scrollWhenPresent(id: string, deadline = Date.now() + 5000): void {
  const el = document.getElementById(id);
  if (el) {
    el.scrollIntoView({ block: 'start' });
    return;
  }
  if (Date.now() < deadline) requestAnimationFrame(() => scrollWhenPresent(id, deadline));
}

/**
 * A link to a section of the landing page ("/#docs"): a real href (new tabs, no JavaScript),
 * and from another page a client-side navigation that then scrolls to the section. On the
 * landing page itself the browser's own jump is kept (smooth scroll, focus moves to the section).
 */
export function LandingSectionLink({ section, onNavigate, onClick, children, ...rest }: ComponentProps<'a'> & { section: string; onNavigate?: () => void }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    onNavigate?.();
    if (pathname === '/' || !isPlainPrimaryClick(event)) return;
    event.preventDefault();
    void navigate({ pathname: '/', hash: `#${section}` });
    scrollWhenPresent(section);
  };
  return (
    <a {...rest} href={`/#${section}`} onClick={handleClick}>
      {children}
    </a>
  );
}

export interface SiteLink {
  label: string;
  /** "#section" of the landing page, "/path" in the app, or a server URL (/api/…, feed, another origin) */
  href: string;
  /** Load it from the server although it looks like an app route (a page of the other site variant). */
  reload?: boolean;
}

/**
 * One link of any kind: landing section, app route or server URL (shared by the landing, the
 * blog and the enterprise site's plan cards). Extra props (a menu item's
 * role, keyboard handlers and ref, given through Radix's asChild) reach the anchor.
 */
export function SiteAnchor({ link, onNavigate, onClick, ...rest }: Omit<ComponentProps<'a'>, 'href' | 'children'> & { link: SiteLink; onNavigate?: () => void }) {
  if (link.href.startsWith('#')) {
    return (
      <LandingSectionLink {...rest} section={link.href.slice(1)} onClick={onClick} onNavigate={onNavigate}>
        {link.label}
      </LandingSectionLink>
    );
  }
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    onNavigate?.();
  };
  // The API, the feed and other origins are pages the router here cannot show.
  if (link.reload || !isInternalHref(link.href)) {
    return (
      <a {...rest} href={link.href} onClick={handleClick}>
        {link.label}
      </a>
    );
  }
  return (
    <Link {...rest} to={link.href} onClick={handleClick}>
      {link.label}
    </Link>
  );
}
