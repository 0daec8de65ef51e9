import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useSetByToken, useUnsubscribeState } from './api';

/**
 * /email/unsubscribe?token=…, opened from a mail's footer, signed in or not. Opening it changes
 * nothing (mail scanners open links); the button does. The token names one person and one
 * category (server/src/features/mail/unsubscribe.ts).
 */
export function UnsubscribePage() {
  useDocumentTitle('Unsubscribe · Sixdigit');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const state = useUnsubscribeState(token);
  const set = useSetByToken(token);
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-12 sm:px-6">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1>E-mail from Sixdigit</h1>
          </CardTitle>
          {state.data ? (
            <CardDescription>
              {state.data.label} to {state.data.maskedEmail}: {state.data.description}
            </CardDescription>
          ) : null}
        </CardHeader>
        <CardContent className="space-y-4">
          {!token ? (
            <p role="alert" className="text-sm text-destructive">
              This link is incomplete. Sign in and open Settings → E-mail to choose what we send you.
            </p>
          ) : state.isPending ? (
            <Skeleton className="h-20 w-full" />
          ) : state.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {errorMessage(state.error, 'This unsubscribe link is not valid.')}
            </p>
          ) : (
            <>
              <p role="status" className="text-sm">
                {state.data.enabled ? `You receive these mails.` : `You no longer receive these mails.`}
              </p>
              <Button onClick={() => set.mutate(!state.data.enabled)} disabled={set.isPending} variant={state.data.enabled ? 'default' : 'outline'}>
                {state.data.enabled ? `Stop ${state.data.label.toLowerCase()} e-mails` : `Send me ${state.data.label.toLowerCase()} e-mails again`}
              </Button>
              {set.isError ? (
                <p role="alert" className="text-sm text-destructive">
                  {errorMessage(set.error, 'Not saved. Try again.')}
                </p>
              ) : null}
              <p className="text-sm text-muted-foreground">
                Security notices and answers to your messages are always sent. All choices: <a className="underline" href="/settings/email">Settings → E-mail</a> (sign-in needed).
              </p>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
