import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

export const ENTERPRISE_CONTAINER = 'mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8';

interface EnterpriseSectionProps {
  id: string;
  eyebrow?: string;
  title: string;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A page section labelled by its own h2. */
export function EnterpriseSection({ id, eyebrow, title, description, className, children }: EnterpriseSectionProps) {
  const titleId = `${id}-title`;
  return (
    <section id={id} aria-labelledby={titleId} className={cn('scroll-mt-16 py-16 sm:py-20', className)}>
      <div className={ENTERPRISE_CONTAINER}>
        <div className="mx-auto max-w-2xl text-center">
          {eyebrow && <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>}
          <h2 id={titleId} className="mt-2 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
            {title}
          </h2>
          {description && <p className="mt-4 text-base leading-relaxed text-muted-foreground text-pretty sm:text-lg">{description}</p>}
        </div>
        <div className="mt-10 sm:mt-12">{children}</div>
      </div>
    </section>
  );
}

/** The hero at the top of each enterprise page (the page's one h1). */
export function EnterpriseHero({ eyebrow, title, description, children }: { eyebrow: string; title: string; description: ReactNode; children?: ReactNode }) {
  return (
    <section className="border-b bg-gradient-to-b from-primary/10 to-background">
      <div className={cn(ENTERPRISE_CONTAINER, 'py-14 sm:py-20')}>
        <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
        <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl">{title}</h1>
        <div className="mt-4 max-w-2xl text-lg text-muted-foreground text-pretty">{description}</div>
        {children}
      </div>
    </section>
  );
}
