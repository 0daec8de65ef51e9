import { useId, type ReactNode } from 'react';
import { BrandMark } from '@/app/layout/Brand';
import { cn } from '@/lib/utils';
import { CONTAINER } from './container';
import { SiteAnchor, type SiteLink } from './links';

export interface FooterColumn {
  title: string;
  links: readonly SiteLink[];
  /** A line of small print under the column's links. */
  note?: string;
}

/** On wide screens the brand column takes what the link columns leave (Tailwind needs whole class names). */
const WIDE_GRID: Record<number, string> = {
  1: 'lg:grid-cols-[3fr_1fr]',
  2: 'lg:grid-cols-[2fr_1fr_1fr]',
  3: 'lg:grid-cols-[1.4fr_1fr_1fr_1fr]',
};

const LINK = 'rounded-sm text-sm text-muted-foreground transition-colors hover:text-foreground';

/**
 * The signed-out visitor's footer (landing page, blog): brand and description, then one
 * navigation landmark per column, then the copyright line.
 */
export function PublicFooter({
  description,
  extra,
  columns,
  fineprint,
}: {
  description: string;
  /** Shown under the description (e.g. the blog's RSS link). */
  extra?: ReactNode;
  columns: readonly FooterColumn[];
  /** Shown opposite the copyright line. */
  fineprint?: string;
}) {
  const idPrefix = useId();
  return (
    <footer className="border-t bg-muted/30">
      <div className={cn(CONTAINER, 'py-14')}>
        <div className={cn('grid grid-cols-2 gap-x-6 gap-y-10', WIDE_GRID[columns.length])}>
          <div className="col-span-2 max-w-xs lg:col-span-1">
            <div className="flex items-center gap-2 text-base font-semibold tracking-tight">
              <BrandMark className="size-7" />
              <span>Sixdigit</span>
            </div>
            <p className="mt-4 text-sm leading-relaxed text-muted-foreground">{description}</p>
            {extra}
          </div>
          {columns.map((column) => {
            const headingId = `${idPrefix}-${column.title.toLowerCase()}`;
            return (
              <nav key={column.title} aria-labelledby={headingId}>
                <h2 id={headingId} className="text-sm font-semibold">
                  {column.title}
                </h2>
                <ul className="mt-4 space-y-3">
                  {column.links.map((link) => (
                    <li key={link.label}>
                      <SiteAnchor link={link} className={LINK} />
                    </li>
                  ))}
                </ul>
                {column.note && <p className="mt-4 text-xs leading-relaxed text-muted-foreground">{column.note}</p>}
              </nav>
            );
          })}
        </div>
        <div className="mt-12 flex flex-col gap-2 border-t pt-6 text-xs text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
          {/* The server's year is kept if the visitor's clock has already turned over (hydration on New Year's Eve). */}
          <p suppressHydrationWarning>© {new Date().getFullYear()} Sixdigit. All rights reserved.</p>
          {fineprint && <p>{fineprint}</p>}
        </div>
      </div>
    </footer>
  );
}
