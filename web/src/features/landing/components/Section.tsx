import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { CONTAINER } from '../content';

interface SectionProps {
  id: string;
  eyebrow: string;
  title: string;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A landing-page section labelled by its own heading; scroll margin clears the sticky bar. */
export function Section({ id, eyebrow, title, description, className, children }: SectionProps) {
  const titleId = `${id}-title`;
  return (
    <section id={id} aria-labelledby={titleId} className={cn('scroll-mt-16 py-20 sm:py-24', className)}>
      <div className={CONTAINER}>
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
          <h2 id={titleId} className="mt-3 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
            {title}
          </h2>
          {description && (
            <p className="mt-4 text-base leading-relaxed text-muted-foreground text-pretty sm:text-lg">{description}</p>
          )}
        </div>
        <div className="mt-12 sm:mt-14">{children}</div>
      </div>
    </section>
  );
}
