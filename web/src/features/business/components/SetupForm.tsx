import { useId, useState, type FormEvent } from 'react';
import { BadgeIndianRupee, BarChart3, Building2, KeyRound } from 'lucide-react';
import { PAISE_PER_VERIFICATION, formatRupees } from '@common/pricing';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useCreateBusiness } from '../api';

const POINTS = [
  { icon: KeyRound, text: 'An API key for the verification API, shown once' },
  { icon: BadgeIndianRupee, text: `Prepaid, ${formatRupees(PAISE_PER_VERIFICATION)} per verification, no monthly fee` },
  { icon: BarChart3, text: 'Usage statistics, exports and low-balance reminders' },
];

/** No business yet (the profile answered 404): ask for the company name. */
export function SetupForm({ onCreated }: { onCreated: (apiKey: string, testApiKey: string) => void }) {
  const inputId = useId();
  const hintId = useId();
  const [companyName, setCompanyName] = useState('');
  const create = useCreateBusiness();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = companyName.trim();
    if (!name) {
      toast({ variant: 'destructive', title: 'Company Name Required', description: 'Please enter your company name.' });
      return;
    }
    create.mutate(name, {
      onSuccess: (created) => {
        onCreated(created.apiKey, created.testApiKey);
        toast({
          title: 'Business Account Created',
          description: 'Copy your API keys now — they will not be shown again.',
        });
      },
      onError: () => {
        toast({
          variant: 'destructive',
          title: 'Creation Failed',
          description: 'Failed to create business account. Please try again.',
        });
      },
    });
  }

  return (
    <div className="mx-auto w-full max-w-xl px-4 py-10 sm:px-6 sm:py-16">
      <Card>
        <CardHeader className="gap-3">
          <span className="flex size-11 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <Building2 className="size-5" aria-hidden="true" />
          </span>
          <h1 className="text-2xl leading-tight font-semibold tracking-tight">Set Up Business Account</h1>
          <CardDescription className="text-base">
            Create your business account to verify your users&apos; authenticator codes through the Sixdigit API.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <ul className="space-y-2 text-sm">
            {POINTS.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-2">
                <Icon className="size-4 shrink-0 text-primary" aria-hidden="true" />
                {text}
              </li>
            ))}
          </ul>
          <form onSubmit={submit} noValidate className="space-y-4">
            <div className="space-y-2">
              <Label htmlFor={inputId}>Company Name</Label>
              <Input
                id={inputId}
                name="companyName"
                value={companyName}
                onChange={(e) => setCompanyName(e.target.value)}
                placeholder="Acme Payments Pvt Ltd"
                autoComplete="organization"
                maxLength={200}
                aria-describedby={hintId}
                disabled={create.isPending}
              />
              <p id={hintId} className="text-xs text-muted-foreground">
                Shown on your dashboard and as the default issuer in your users&apos; authenticator apps.
              </p>
            </div>
            <Button type="submit" className="w-full" disabled={create.isPending}>
              {create.isPending && <Spinner label="Creating" className="text-primary-foreground" />}
              {create.isPending ? 'Creating…' : 'Create Business Account'}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
