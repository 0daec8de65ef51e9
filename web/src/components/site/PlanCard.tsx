import type { ReactNode } from 'react';
import { CheckIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { SiteAnchor, type SiteLink } from './links';

export interface PlanCardProps {
  /** The title's element id (the card is a group labelled by it). */
  titleId: string;
  name: string;
  tagline: string;
  /** Outlined in the brand colour, with `badge` beside the name and a filled button. */
  featured: boolean;
  badge: string;
  /** The big figure: a formatted price, or "Custom". */
  price: string;
  /** The small lines under the price (what it buys, per-verification rate). */
  priceNotes: readonly ReactNode[];
  features: readonly string[];
  cta: SiteLink;
}

/** One pricing plan (the landing's rupee plans, the enterprise site's dollar plans). */
export function PlanCard({ titleId, name, tagline, featured, badge, price, priceNotes, features, cta }: PlanCardProps) {
  return (
    <Card role="group" aria-labelledby={titleId} className={cn('relative flex flex-col', featured && 'border-primary shadow-md ring-1 ring-primary')}>
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle id={titleId}>{name}</CardTitle>
          {featured && <Badge>{badge}</Badge>}
        </div>
        <CardDescription>{tagline}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col">
        <div>
          <p className="text-4xl font-semibold tracking-tight tabular-nums">{price}</p>
          {priceNotes.map((note, i) => (
            // A fixed list per plan: its order is its identity.
            <p key={i} className="mt-1 text-sm text-muted-foreground">
              {note}
            </p>
          ))}
        </div>
        <ul className="mt-6 space-y-2.5 text-sm">
          {features.map((feature) => (
            <li key={feature} className="flex items-start gap-2">
              <CheckIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
              <span>{feature}</span>
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter>
        <Button asChild variant={featured ? 'default' : 'outline'} size="lg" className="w-full">
          <SiteAnchor link={cta} />
        </Button>
      </CardFooter>
    </Card>
  );
}
