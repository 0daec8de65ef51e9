import { useId, useState, type FormEvent } from 'react';
import { Bot, Clock, CreditCard, Mail, ReceiptText, Search } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useCurrentUser } from '@/features/auth/api';
import { formatDateTime } from '@/features/business/format';
import { Markdown } from '@/features/luna/Markdown';
import { LunaWidget } from '@/features/luna/LunaWidget';
import { ApiError } from '@/lib/api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { CATEGORY_LABELS, fetchStatus, STATUS_LABELS, useMyMessages, useSendContact, type ContactCategory, type ContactMessage } from './api';

const INFO = [
  { icon: Bot, title: 'Technical Issues', text: 'Integration questions and errors are routed to Luna AI and answered at once.' },
  { icon: CreditCard, title: 'Payment Issues', text: 'Manual approvals and failed payments go to financial review.' },
  { icon: ReceiptText, title: 'Refund Requests', text: 'Account issues and billing disputes are escalated to the administrator.' },
];
const RESPONSE_TIMES = [
  ['Technical', 'instant (Luna AI)'],
  ['Payment', '2–4 hours'],
  ['General', '1 business day'],
  ['Refund', 'admin review'],
];

/** /contact (SPEC "Contact"). */
export function ContactPage() {
  useDocumentTitle('Contact support · Sixdigit');
  const { user } = useCurrentUser();
  const [sent, setSent] = useState<ContactMessage | null>(null);

  return (
    <div className="mx-auto w-full max-w-5xl space-y-8 px-4 py-10 sm:px-6">
      <header className="space-y-2">
        <p className="text-sm font-medium text-primary">Support</p>
        <h1 className="text-3xl font-bold tracking-tight">Contact us</h1>
        <p className="text-muted-foreground">Tell us what you need; each message reaches the right team and you get a reference to follow it.</p>
      </header>
      <ul className="grid gap-4 md:grid-cols-3">
        {INFO.map(({ icon: Icon, title, text }) => (
          <li key={title}>
            <Card className="h-full">
              <CardHeader>
                <CardTitle className="flex items-center gap-2 text-base">
                  <Icon className="size-4 text-primary" aria-hidden="true" />
                  {title}
                </CardTitle>
                <CardDescription>{text}</CardDescription>
              </CardHeader>
            </Card>
          </li>
        ))}
      </ul>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-6">
          <ContactForm signedIn={Boolean(user)} onSent={setSent} />
          {sent && <SentCard message={sent} signedIn={Boolean(user)} />}
        </div>
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2 text-base">
                <Clock className="size-4 text-primary" aria-hidden="true" />
                Response times
              </CardTitle>
            </CardHeader>
            <CardContent className="space-y-3 text-sm">
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                {RESPONSE_TIMES.map(([k, v]) => (
                  <div key={k} className="contents">
                    <dt className="font-medium">{k}</dt>
                    <dd className="text-muted-foreground">{v}</dd>
                  </div>
                ))}
              </dl>
              <p className="rounded-md bg-muted p-3 text-muted-foreground">
                Our policy: we never ask for your API key, secrets or codes. Unused credits are not refunded; billing disputes are reviewed by the administrator. Business hours: Monday–Friday, 9 AM–6 PM IST.
              </p>
            </CardContent>
          </Card>
          {user ? <MyRequests /> : <StatusCheck />}
        </div>
      </div>
      <LunaWidget userId={user?.id ?? null} />
    </div>
  );
}

function ContactForm({ signedIn, onSent }: { signedIn: boolean; onSent: (m: ContactMessage) => void }) {
  const send = useSendContact();
  const ids = { email: useId(), category: useId(), subject: useId(), message: useId() };
  const [email, setEmail] = useState('');
  const [category, setCategory] = useState<ContactCategory>('general');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!subject.trim() || !message.trim()) {
      toast({ variant: 'destructive', title: 'Missing information', description: 'Please fill in subject and message' });
      return;
    }
    send.mutate(
      { ...(signedIn ? {} : { email: email.trim() }), category, subject: subject.trim(), message: message.trim() },
      {
        onSuccess: ({ message: saved }) => {
          toast({ title: 'Message sent', description: "We'll review your message and respond appropriately" });
          setSubject('');
          setMessage('');
          onSent(saved);
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Failed to send',
            description: error instanceof ApiError && error.status < 500 && error.serverMessage ? error.serverMessage : 'Please try again later',
          }),
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Mail className="size-5 text-primary" aria-hidden="true" />
          Send a message
        </CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="space-y-4" noValidate>
          {!signedIn && (
            <div className="space-y-1">
              <Label htmlFor={ids.email}>E-mail</Label>
              <Input id={ids.email} type="email" required autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </div>
          )}
          <div className="space-y-1">
            <Label htmlFor={ids.category}>Category</Label>
            <select
              id={ids.category}
              value={category}
              onChange={(e) => setCategory(e.target.value as ContactCategory)}
              className="h-9 w-full rounded-md border border-input bg-background px-3 text-sm shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              {(Object.keys(CATEGORY_LABELS) as ContactCategory[]).map((c) => (
                <option key={c} value={c}>
                  {CATEGORY_LABELS[c]}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1">
            <Label htmlFor={ids.subject}>Subject</Label>
            <Input id={ids.subject} maxLength={200} value={subject} onChange={(e) => setSubject(e.target.value)} />
          </div>
          <div className="space-y-1">
            <Label htmlFor={ids.message}>Message</Label>
            <textarea
              id={ids.message}
              rows={6}
              maxLength={5000}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              className="w-full rounded-md border border-input bg-background px-3 py-2 text-sm shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            />
          </div>
          <Button type="submit" disabled={send.isPending}>
            {send.isPending ? 'Processing...' : 'Send message'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function MessageBody({ message: m }: { message: ContactMessage }) {
  return (
    <div className="space-y-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={m.status === 'closed' ? 'secondary' : m.status === 'assigned_to_luna' ? 'success' : 'outline'}>{STATUS_LABELS[m.status]}</Badge>
        <span className="text-muted-foreground">{CATEGORY_LABELS[m.category]}</span>
        <span className="font-mono text-xs">{m.reference}</span>
      </div>
      <p className="font-medium break-words">{m.subject}</p>
      {m.lunaResponse && (
        <div className="rounded-md border bg-muted/40 p-3">
          <p className="mb-1 flex items-center gap-1 text-xs font-medium text-primary">
            <Bot className="size-3.5" aria-hidden="true" />
            Luna answered
          </p>
          <Markdown>{m.lunaResponse}</Markdown>
        </div>
      )}
      {m.resolution && <p className="rounded-md bg-success/10 p-2">Resolution: {m.resolution}</p>}
      <p className="text-xs text-muted-foreground">Sent {formatDateTime(m.createdAt)}</p>
    </div>
  );
}

function SentCard({ message, signedIn }: { message: ContactMessage; signedIn: boolean }) {
  return (
    <Card role="status" aria-label="Message sent">
      <CardHeader>
        <CardTitle className="text-base">Your reference: {message.reference}</CardTitle>
        <CardDescription>{signedIn ? 'It is listed under My requests.' : 'Keep it: with your e-mail it shows the status on this page.'}</CardDescription>
      </CardHeader>
      <CardContent>
        <MessageBody message={message} />
      </CardContent>
    </Card>
  );
}

function MyRequests() {
  const mine = useMyMessages(true);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">My requests</CardTitle>
      </CardHeader>
      <CardContent>
        {mine.isPending ? (
          <Skeleton className="h-24" />
        ) : mine.isError ? (
          <p role="alert" className="text-sm text-destructive">Couldn&apos;t load your requests.</p>
        ) : mine.data.messages.length === 0 ? (
          <p className="text-sm text-muted-foreground">You have not sent any messages yet.</p>
        ) : (
          <ul className="divide-y" aria-label="My requests">
            {mine.data.messages.map((m) => (
              <li key={m.id} className="py-3">
                <MessageBody message={m} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function StatusCheck() {
  const ids = { reference: useId(), email: useId() };
  const [reference, setReference] = useState('');
  const [email, setEmail] = useState('');
  const [found, setFound] = useState<ContactMessage | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  async function check(event: FormEvent) {
    event.preventDefault();
    setChecking(true);
    setProblem(null);
    try {
      setFound((await fetchStatus(reference.trim(), email.trim())).message);
    } catch (error) {
      setFound(null);
      setProblem(error instanceof ApiError && error.status === 404 ? 'No message with that reference and e-mail address.' : 'Could not check right now. Please try again.');
    } finally {
      setChecking(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Check a request</CardTitle>
        <CardDescription>Your reference and the e-mail you wrote from.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <form onSubmit={check} className="space-y-2">
          <Label htmlFor={ids.reference}>Reference</Label>
          <Input id={ids.reference} placeholder="SD-XXXX-XXXX" value={reference} onChange={(e) => setReference(e.target.value)} />
          <Label htmlFor={ids.email}>E-mail</Label>
          <Input id={ids.email} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          <Button type="submit" variant="outline" disabled={checking || !reference.trim() || !email.trim()}>
            <Search aria-hidden="true" />
            Check status
          </Button>
        </form>
        {problem && <p role="alert" className="text-sm text-destructive">{problem}</p>}
        {found && (
          <div role="region" aria-label="Request status">
            <MessageBody message={found} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
