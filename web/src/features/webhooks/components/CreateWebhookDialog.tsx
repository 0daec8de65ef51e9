import { useId, useState, type FormEvent } from 'react';
import { Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { WEBHOOK_EVENTS, useCreateWebhook, type CreatedWebhook } from '../api';
import { VALIDATION_MESSAGE, VALIDATION_TITLE, toastWebhookError } from '../toasts';
import { SecretReveal } from './SecretReveal';
import type { ApiMode } from '@common/contract/business';

interface CreateWebhookDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** test: the endpoint receives only the test key's events */
  mode?: ApiMode;
}

/**
 * Add an endpoint: URL, at least one event, an optional secret (generated when empty). On
 * success the dialog turns into the one-time view of the signing secret.
 */
export function CreateWebhookDialog({ open, onOpenChange, mode = 'live' }: CreateWebhookDialogProps) {
  const [created, setCreated] = useState<CreatedWebhook | null>(null);

  function change(next: boolean) {
    // Closing forgets the secret (and the form), so it is shown exactly once.
    if (!next) setCreated(null);
    onOpenChange(next);
  }

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent className="sm:max-w-xl">
        {created ? (
          <>
            <DialogHeader>
              <DialogTitle>Webhook created</DialogTitle>
              <DialogDescription className="[overflow-wrap:anywhere]">
                Events for {created.url} are signed with the secret below.
              </DialogDescription>
            </DialogHeader>
            <SecretReveal secret={created.secret} />
            <DialogFooter>
              <Button type="button" onClick={() => change(false)}>
                I&apos;ve saved it — done
              </Button>
            </DialogFooter>
          </>
        ) : (
          <CreateForm onCreated={setCreated} onCancel={() => change(false)} mode={mode} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function CreateForm({ onCreated, onCancel, mode }: { onCreated: (w: CreatedWebhook) => void; onCancel: () => void; mode: ApiMode }) {
  const ids = useId();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [secret, setSecret] = useState('');
  const [description, setDescription] = useState('');
  const create = useCreateWebhook();

  function toggle(event: string, on: boolean) {
    setEvents((current) => (on ? [...current, event] : current.filter((e) => e !== event)));
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (create.isPending) return;
    if (!url.trim() || events.length === 0) {
      toast({ variant: 'destructive', title: VALIDATION_TITLE, description: VALIDATION_MESSAGE });
      return;
    }
    const ordered = WEBHOOK_EVENTS.map((x) => x.id).filter((id) => events.includes(id));
    create.mutate(
      { url: url.trim(), events: ordered, livemode: mode === 'live',
        ...(description.trim() ? { description: description.trim() } : {}),
        ...(secret.trim() ? { secret: secret.trim() } : {}) },
      {
        onSuccess: (webhook) => {
          toast({ title: 'Webhook created', description: 'Copy the signing secret now — it is shown only once.' });
          onCreated(webhook);
        },
        onError: (error) => toastWebhookError(error, 'Failed to create webhook'),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-5">
      <DialogHeader>
        <DialogTitle>{mode === 'test' ? 'Add a test webhook' : 'Add a webhook'}</DialogTitle>
        <DialogDescription>
          Sixdigit POSTs a signed JSON event to your URL. Answer with a 2xx within 10 seconds; failed deliveries are
          retried after 1 s, 5 s and 30 s.
        </DialogDescription>
      </DialogHeader>

      <div className="grid gap-2">
        <Label htmlFor={`${ids}-url`}>Endpoint URL</Label>
        <Input
          id={`${ids}-url`}
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://example.com/webhooks/sixdigit"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
      </div>

      <div className="grid gap-2">
        <Label htmlFor={`${ids}-description`}>
          Description <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Input
          id={`${ids}-description`}
          autoComplete="off"
          maxLength={500}
          placeholder="What this endpoint is for, e.g. Production login service"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>

      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Events</legend>
        {WEBHOOK_EVENTS.map((event) => {
          const id = `${ids}-${event.id}`;
          return (
            <div key={event.id} className="flex items-start gap-3 rounded-md border p-3">
              <input
                id={id}
                type="checkbox"
                className="mt-0.5 size-4 shrink-0 accent-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                checked={events.includes(event.id)}
                onChange={(e) => toggle(event.id, e.target.checked)}
                aria-describedby={`${id}-hint`}
              />
              <div className="grid gap-1">
                <Label htmlFor={id} className="font-mono text-xs sm:text-sm">
                  {event.id}
                </Label>
                <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                  {event.description}
                </p>
              </div>
            </div>
          );
        })}
      </fieldset>

      <div className="grid gap-2">
        <Label htmlFor={`${ids}-secret`}>
          Signing secret <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Input
          id={`${ids}-secret`}
          autoComplete="off"
          spellCheck={false}
          placeholder="whsec_… — leave empty to generate one"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          aria-describedby={`${ids}-secret-hint`}
          className="font-mono"
        />
        <p id={`${ids}-secret-hint`} className="text-xs text-muted-foreground">
          Leave it empty and we generate a strong <code className="font-mono">whsec_</code> secret for you.
        </p>
      </div>

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? <Spinner label="Creating webhook" className="text-primary-foreground" /> : <Plus aria-hidden="true" />}
          Create webhook
        </Button>
      </DialogFooter>
    </form>
  );
}
