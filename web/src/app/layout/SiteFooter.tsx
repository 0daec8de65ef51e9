import { Link } from 'react-router';
import { BrandMark } from './Brand';

export interface FooterLink {
  label: string;
  to: string;
}

export function SiteFooter({ links, tagline }: { links: FooterLink[]; tagline: string }) {
  return (
    <footer className="mt-auto border-t bg-muted/40">
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-8 text-sm sm:px-6 md:flex-row md:items-center md:justify-between">
        <div className="flex items-center gap-2">
          <BrandMark className="size-6" />
          <div>
            <p className="font-semibold">Sixdigit</p>
            <p className="text-muted-foreground">{tagline}</p>
          </div>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-5 gap-y-2">
            {links.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="rounded-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="text-muted-foreground">© {new Date().getFullYear()} Sixdigit</p>
      </div>
    </footer>
  );
}
