import type { LucideIcon } from 'lucide-react';
import { Construction } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { useDocumentTitle } from '@/lib/use-document-title';

export interface ComingSoonPageProps {
  title: string;
  description: string;
  icon?: LucideIcon;
  /** What the finished page will hold. */
  features?: string[];
  /** Where the "back" link goes. */
  backTo?: { label: string; to: string };
}

/** The "coming in this release" state for routes whose page is still being built. */
export function ComingSoonPage({
  title,
  description,
  icon: Icon = Construction,
  features = [],
  backTo = { label: 'Back to home', to: '/' },
}: ComingSoonPageProps) {
  useDocumentTitle(`${title} · Sixdigit`);
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col px-4 py-10 sm:px-6 sm:py-16">
      <Card>
        <CardHeader className="gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <span className="flex size-11 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <Badge variant="secondary">Coming in this release</Badge>
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          <CardDescription className="text-base">{description}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          {features.length > 0 && (
            <div>
              <h2 className="mb-2 text-sm font-medium">What this page will hold</h2>
              <ul className="grid gap-2 text-sm text-muted-foreground sm:grid-cols-2">
                {features.map((feature) => (
                  <li key={feature} className="flex gap-2">
                    <span className="mt-2 size-1.5 shrink-0 rounded-full bg-primary" aria-hidden="true" />
                    {feature}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <p className="text-sm text-muted-foreground">
            This page is being built as part of the current release and is not available yet.
          </p>
          <Button variant="outline" asChild>
            <Link to={backTo.to}>{backTo.label}</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
