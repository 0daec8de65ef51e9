import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useDocumentTitle } from '@/lib/use-document-title';

export interface EnterprisePlaceholderProps {
  eyebrow: string;
  title: string;
  description: string;
  /** What the finished page will hold. */
  planned: string[];
  /** CTA buttons under the hero. */
  actions?: ReactNode;
  /** A preview block shown beside the plan. */
  children?: ReactNode;
}

/** Shared frame for the enterprise pages while they are built in this release. */
export function EnterprisePlaceholder({
  eyebrow,
  title,
  description,
  planned,
  actions,
  children,
}: EnterprisePlaceholderProps) {
  useDocumentTitle(`${eyebrow} · Sixdigit Enterprise — TOTP verification at $0.0038`);
  return (
    <>
      <section className="border-b bg-gradient-to-b from-primary/10 to-background">
        <div className="mx-auto max-w-5xl px-4 py-14 sm:px-6 sm:py-20">
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
          <h1 className="mt-3 max-w-3xl text-3xl font-bold tracking-tight text-balance sm:text-5xl">{title}</h1>
          <p className="mt-4 max-w-2xl text-lg text-muted-foreground">{description}</p>
          {actions && <div className="mt-8 flex flex-wrap gap-3">{actions}</div>}
        </div>
      </section>
      <section className="mx-auto grid w-full max-w-5xl gap-6 px-4 py-12 sm:px-6 md:grid-cols-2">
        <Card>
          <CardHeader className="gap-3">
            <Badge variant="secondary" className="w-fit">
              Coming in this release
            </Badge>
            <CardTitle>
              <span>What this page will hold</span>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="space-y-2 text-sm text-muted-foreground">
              {planned.map((item) => (
                <li key={item} className="flex gap-2">
                  <span className="mt-2 size-1.5 shrink-0 rounded-full bg-primary" aria-hidden="true" />
                  {item}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        {children}
      </section>
    </>
  );
}
