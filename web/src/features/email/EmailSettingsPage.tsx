import { useId } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useCurrentUser } from '@/features/auth/api';
import { errorMessage } from '@/lib/api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useEmailPreferences, useSetEmailPreference, type EmailPreference } from './api';

/** /settings/email: which e-mails this person receives (the optional categories), and what is always sent. */
export function EmailSettingsPage() {
  useDocumentTitle('E-mail settings · Sixdigit');
  const { user } = useCurrentUser();
  const impersonating = Boolean(user?.impersonation);
  const preferences = useEmailPreferences();
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8 sm:px-6">
      <header className="space-y-1">
        <p className="text-sm font-medium text-primary">Settings</p>
        <h1 className="text-3xl font-bold tracking-tight">E-mail</h1>
        <p className="text-muted-foreground">
          {preferences.data ? (
            <>
              What we send to <span className="font-medium text-foreground">{preferences.data.email}</span>.
            </>
          ) : (
            'What we send to your address.'
          )}
        </p>
      </header>
      <Card>
        <CardHeader>
          <CardTitle>Mails you may turn off</CardTitle>
          <CardDescription>Each of these mails also has a link to stop it, which works without signing in.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          {preferences.isPending ? (
            <Skeleton className="h-32 w-full" />
          ) : preferences.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {errorMessage(preferences.error, 'Your e-mail settings could not be loaded.')}
            </p>
          ) : (
            preferences.data.preferences.map((p) => <PreferenceRow key={p.category} preference={p} disabled={impersonating} />)
          )}
          {impersonating ? <p className="text-sm text-muted-foreground">Only the person can change these, not while acting as them.</p> : null}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Always sent</CardTitle>
          <CardDescription>Part of using your account: these cannot be turned off.</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="space-y-3">
            {(preferences.data?.alwaysSent ?? []).map((c) => (
              <li key={c.label}>
                <p className="text-sm font-medium">{c.label}</p>
                <p className="text-sm text-muted-foreground">{c.description}</p>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}

function PreferenceRow({ preference, disabled }: { preference: EmailPreference; disabled: boolean }) {
  const id = useId();
  const set = useSetEmailPreference();
  const change = (enabled: boolean) =>
    set.mutate(
      { category: preference.category, enabled },
      {
        onSuccess: () => toast({ title: enabled ? `${preference.label}: on` : `${preference.label}: off` }),
        onError: (error) => toast({ title: 'Not saved', description: errorMessage(error, 'Try again.'), variant: 'destructive' }),
      },
    );
  return (
    <label htmlFor={id} className="flex cursor-pointer items-start gap-3 rounded-lg border p-3">
      <input
        id={id}
        type="checkbox"
        checked={preference.enabled}
        disabled={disabled || set.isPending}
        onChange={(e) => change(e.target.checked)}
        className="mt-0.5 size-4 shrink-0 accent-(--color-primary)"
      />
      <span className="space-y-0.5">
        <span className="block text-sm font-medium">{preference.label}</span>
        <span className="block text-sm text-muted-foreground">{preference.description}</span>
      </span>
    </label>
  );
}
