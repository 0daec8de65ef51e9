import { useState } from 'react';
import {
  ArrowRight,
  BadgeIndianRupee,
  Building2,
  ChevronDown,
  Clock,
  Gauge,
  Globe,
  KeyRound,
  Lock,
  ShieldCheck,
  ShieldEllipsis,
  Smartphone,
  Sparkles,
  UserCog,
  WifiOff,
} from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import { useCurrentUser } from '@/features/auth/api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';

const WHY_CHOOSE = [
  {
    icon: Globe,
    title: 'Built on an open standard',
    text: 'Codes follow RFC 6238, so they work with Google Authenticator, Authy, 1Password and every other TOTP app.',
  },
  {
    icon: Lock,
    title: 'Private by design',
    text: 'Secrets are stored encrypted and your codes are computed on your own device — nothing travels by SMS.',
  },
  {
    icon: BadgeIndianRupee,
    title: 'A fraction of the cost of SMS',
    text: 'Businesses pay ₹0.10 per verification, prepaid, with no monthly fee and no carrier delays.',
  },
];

export function HomePage() {
  useDocumentTitle('Home · Sixdigit');
  const { user } = useCurrentUser();
  const [servicesOpen, setServicesOpen] = useState(false);
  const firstName = user?.firstName?.trim();

  return (
    <div className="mx-auto w-full max-w-5xl space-y-10 px-4 py-8 sm:px-6 sm:py-12">
      <section aria-labelledby="welcome-heading" className="space-y-2">
        <h1 id="welcome-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
          {firstName ? `Welcome back, ${firstName}!` : 'Welcome back!'}
        </h1>
        <p className="text-muted-foreground">
          Generate one-time codes for your account, or manage your business verification API.
        </p>
      </section>

      <Card className="overflow-hidden border-primary/30 bg-gradient-to-br from-primary/10 via-card to-card">
        <CardHeader className="gap-4 sm:flex-row sm:items-start">
          <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-primary text-primary-foreground shadow-sm">
            <Smartphone className="size-6" aria-hidden="true" />
          </span>
          <div className="space-y-1.5">
            <CardTitle className="text-2xl">
              <Link
                to="/totp"
                className="rounded-sm hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                Generate TOTP Codes
              </Link>
            </CardTitle>
            <CardDescription className="text-base">
              Set up time-based one-time passwords for your account and get a fresh 6-digit code
              every 30 seconds.
            </CardDescription>
          </div>
        </CardHeader>
        <CardContent>
          <ul className="flex flex-wrap gap-2" aria-label="Highlights">
            <li>
              <Badge variant="secondary" className="px-2.5 py-1 text-sm">
                <ShieldCheck aria-hidden="true" /> Secure &amp; Private
              </Badge>
            </li>
            <li>
              <Badge variant="secondary" className="px-2.5 py-1 text-sm">
                <WifiOff aria-hidden="true" /> Works Offline
              </Badge>
            </li>
            <li>
              <Badge variant="secondary" className="px-2.5 py-1 text-sm">
                <Sparkles aria-hidden="true" /> Free Forever
              </Badge>
            </li>
          </ul>
        </CardContent>
        <CardFooter>
          <Button asChild size="lg">
            <Link to="/totp">
              <KeyRound aria-hidden="true" />
              Open Account TOTP
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </CardFooter>
      </Card>

      <Collapsible open={servicesOpen} onOpenChange={setServicesOpen} asChild>
        <section aria-labelledby="services-heading" className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <h2 id="services-heading" className="text-xl font-semibold tracking-tight">
                More services
              </h2>
              <p className="text-sm text-muted-foreground">
                {user?.isAdmin
                  ? 'The business verification API and your administrator tools.'
                  : 'Add TOTP verification to your own product.'}
              </p>
            </div>
            <CollapsibleTrigger asChild>
              <Button variant="outline">
                {servicesOpen ? 'Hide services' : 'Show services'}
                <ChevronDown
                  aria-hidden="true"
                  className={cn('transition-transform', servicesOpen && 'rotate-180')}
                />
              </Button>
            </CollapsibleTrigger>
          </div>
          <CollapsibleContent>
            <div className="grid gap-4 md:grid-cols-2">
              <ServiceCard
                to="/business"
                icon={Building2}
                title="Business API Service"
                description="Pay-per-use TOTP verification for your app, with prepaid credits and no monthly fee."
                points={[
                  { icon: BadgeIndianRupee, text: '₹0.10 per verification' },
                  { icon: Clock, text: '99.9% uptime' },
                  { icon: Gauge, text: 'Under 200ms response' },
                ]}
                badges={['Pay-per-use']}
                action="Open Business dashboard"
              />
              {user?.isAdmin && (
                <ServiceCard
                  to="/admin"
                  icon={ShieldEllipsis}
                  title="Admin Dashboard"
                  description="User management, system monitoring, payment verification and security configuration."
                  points={[
                    { icon: UserCog, text: 'User management' },
                    { icon: Gauge, text: 'System monitoring' },
                    { icon: BadgeIndianRupee, text: 'Payment verification' },
                    { icon: Lock, text: 'Security configuration' },
                  ]}
                  badges={['MFA required', 'Role-based access', 'Audit logging']}
                  action="Open Admin"
                />
              )}
            </div>
          </CollapsibleContent>
        </section>
      </Collapsible>

      <section aria-labelledby="why-heading" className="space-y-4">
        <h2 id="why-heading" className="text-xl font-semibold tracking-tight">
          Why choose Sixdigit?
        </h2>
        <ul className="grid gap-4 sm:grid-cols-3">
          {WHY_CHOOSE.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-xl border bg-card p-5">
              <Icon className="mb-3 size-6 text-primary" aria-hidden="true" />
              <h3 className="font-medium">{title}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

interface ServiceCardProps {
  to: string;
  icon: typeof Building2;
  title: string;
  description: string;
  points: { icon: typeof Building2; text: string }[];
  badges: string[];
  action: string;
}

function ServiceCard({ to, icon: Icon, title, description, points, badges, action }: ServiceCardProps) {
  return (
    <Card className="flex flex-col">
      <CardHeader>
        <div className="flex items-center gap-3">
          <span className="flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <Icon className="size-5" aria-hidden="true" />
          </span>
          <CardTitle>{title}</CardTitle>
        </div>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1 space-y-4">
        <ul className="space-y-2 text-sm">
          {points.map(({ icon: PointIcon, text }) => (
            <li key={text} className="flex items-center gap-2">
              <PointIcon className="size-4 text-muted-foreground" aria-hidden="true" />
              {text}
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap gap-2">
          {badges.map((badge) => (
            <Badge key={badge} variant="outline">
              {badge}
            </Badge>
          ))}
        </div>
      </CardContent>
      <CardFooter>
        <Button asChild variant="secondary" className="w-full sm:w-auto">
          <Link to={to}>
            {action}
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
