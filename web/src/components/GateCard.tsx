import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Card, CardContent, CardHeader } from '@/components/ui/card';

/** A centred card for a page's access states: sign in, access denied, MFA required. */
export function GateCard({ icon: Icon, title, children, alert = false }: { icon: LucideIcon; title: string; children: ReactNode; alert?: boolean }) {
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-16 sm:px-6">
      <Card role={alert ? 'alert' : undefined}>
        <CardHeader>
          <h1 className="flex items-center gap-2 text-xl leading-none font-semibold tracking-tight">
            <Icon className="size-5 text-primary" aria-hidden="true" />
            {title}
          </h1>
        </CardHeader>
        <CardContent className="space-y-4">{children}</CardContent>
      </Card>
    </div>
  );
}
