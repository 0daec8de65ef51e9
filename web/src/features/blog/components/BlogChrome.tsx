import { Menu, Rss } from 'lucide-react';
import { Link } from 'react-router';
import { BrandMark } from '@/app/layout/Brand';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { SIGN_IN_HREF, SiteAnchor, type SiteLink } from './links';

/** SPEC "Blog": the header links. */
export const BLOG_NAV: readonly SiteLink[] = [
  { label: 'Home', href: '/' },
  { label: 'Features', href: '#features' },
  { label: 'Pricing', href: '#pricing' },
  { label: 'Blog', href: '/blog' },
  { label: 'API Docs', href: '#docs' },
];

const FOOTER_COLUMNS: readonly { title: string; links: readonly SiteLink[] }[] = [
  {
    title: 'Product',
    links: [
      { label: 'Features', href: '#features' },
      { label: 'Pricing', href: '#pricing' },
      { label: 'API Docs', href: '#docs' },
      { label: 'Payment methods', href: '/payment-methods' },
    ],
  },
  {
    title: 'Support',
    links: [
      { label: 'Contact support', href: '/contact' },
      { label: 'OpenAPI reference', href: '/api/v1/openapi.json' },
      { label: 'Blog', href: '/blog' },
      { label: 'RSS feed', href: '/blog/feed.xml' },
    ],
  },
];

const CONTAINER = 'mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8';
const navLink = 'rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground';

/** The public pages' top bar (signed-out visitors; signed-in people have the app's header). */
export function BlogHeader() {
  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className={`${CONTAINER} flex h-16 items-center gap-4`}>
        <Link to="/" className="flex shrink-0 items-center gap-2 rounded-md text-base font-semibold tracking-tight">
          <BrandMark className="size-8" />
          <span>Sixdigit</span>
        </Link>
        <nav aria-label="Primary" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {BLOG_NAV.map((link) => (
              <li key={link.label}>
                <SiteAnchor link={link} className={navLink} />
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
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button type="button" variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
                <Menu aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end" className="w-52">
              {BLOG_NAV.map((link) => (
                <DropdownMenuItem key={link.label} asChild>
                  <SiteAnchor link={link} />
                </DropdownMenuItem>
              ))}
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>
    </header>
  );
}

export function BlogFooter() {
  return (
    <footer className="mt-auto border-t bg-muted/30">
      <div className={`${CONTAINER} grid grid-cols-2 gap-8 py-12 lg:grid-cols-[2fr_1fr_1fr]`}>
        <div className="col-span-2 max-w-sm lg:col-span-1">
          <div className="flex items-center gap-2 font-semibold">
            <BrandMark className="size-7" />
            Sixdigit
          </div>
          <p className="mt-3 text-sm leading-relaxed text-muted-foreground">
            Prepaid TOTP verification for businesses: a cheaper, safer alternative to SMS and WhatsApp one-time codes.
          </p>
          <a href="/blog/feed.xml" className="mt-3 inline-flex items-center gap-1.5 text-sm font-medium text-primary hover:underline">
            <Rss className="size-4" aria-hidden="true" />
            Subscribe by RSS
          </a>
        </div>
        {FOOTER_COLUMNS.map((column) => (
          <nav key={column.title} aria-labelledby={`blog-footer-${column.title.toLowerCase()}`}>
            <h2 id={`blog-footer-${column.title.toLowerCase()}`} className="text-sm font-semibold">
              {column.title}
            </h2>
            <ul className="mt-3 space-y-2">
              {column.links.map((link) => (
                <li key={link.label}>
                  <SiteAnchor link={link} className="text-sm text-muted-foreground hover:text-foreground" />
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className={`${CONTAINER} border-t py-5 text-xs text-muted-foreground`}>© {new Date().getFullYear()} Sixdigit. All rights reserved.</p>
    </footer>
  );
}
