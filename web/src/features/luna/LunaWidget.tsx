import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Bot, Minus, Send, Sparkles, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { askLuna, type ChatMessage } from './api';
import { Markdown } from './Markdown';

export const WELCOME =
  "Hi, I'm Luna 👋 I know the Sixdigit API, webhooks, pricing and your own account. Ask me for code, what an error means, or why a check failed.";
export const FAILURE =
  "I'm having trouble connecting right now. Please try again in a moment, or contact support if the issue persists.";
/** SPEC §2: the suggested prompts and what each asks. */
export const SUGGESTIONS = [
  { label: 'API Integration', question: 'How do I integrate the verify API?' },
  { label: 'Generate Code', question: 'Show me Python code to verify a TOTP code' },
  { label: 'Check Credits', question: "What's my balance?" },
  { label: 'Troubleshoot', question: 'Why did my last verification fail?' },
];
/** SPEC §9: an assistant reply under 30 s old shows "New" on the closed bubble. */
export const NEW_BADGE_MS = 30_000;
const STORAGE_KEY = 'sixdigit.luna.conversation';

let counter = 0;
function chatMessage(role: ChatMessage['role'], content: string, extra: Partial<ChatMessage> = {}): ChatMessage {
  counter += 1;
  return { id: `${role}-${Date.now()}-${counter}`, role, content, type: 'text', timestamp: Date.now(), ...extra };
}
const welcome = (): ChatMessage => chatMessage('assistant', WELCOME, { id: 'welcome' });

function loadConversation(): ChatMessage[] {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as ChatMessage[] | null;
    return Array.isArray(saved) && saved.length ? saved : [welcome()];
  } catch {
    return [welcome()];
  }
}

type View = 'closed' | 'open' | 'minimized';

/** Luna, floating on every signed-in page and on /contact (SPEC "Luna chat widget"). */
export function LunaWidget({ userId = null, hasApiKey = false, initialOpen = false }: { userId?: string | null; hasApiKey?: boolean; initialOpen?: boolean }) {
  const [view, setView] = useState<View>(initialOpen ? 'open' : 'closed');
  const [messages, setMessages] = useState<ChatMessage[]>(loadConversation);
  const [input, setInput] = useState('');
  const [pending, setPending] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const titleId = useId();
  const inputId = useId();

  useEffect(() => {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(messages));
    listRef.current?.scrollTo({ top: listRef.current.scrollHeight });
  }, [messages, view]);

  useEffect(() => {
    if (view === 'open') inputRef.current?.focus();
  }, [view]);

  const lastAssistant = [...messages].reverse().find((m) => m.role === 'assistant' && m.id !== 'welcome');
  const fresh = view !== 'open' && lastAssistant !== undefined && now - lastAssistant.timestamp < NEW_BADGE_MS;
  useEffect(() => {
    if (!lastAssistant || view === 'open') return;
    const left = NEW_BADGE_MS - (Date.now() - lastAssistant.timestamp);
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), left + 10);
    return () => clearTimeout(timer);
  }, [lastAssistant, view]);

  async function send(text: string) {
    const question = text.trim();
    if (!question || pending) return;
    const asked = chatMessage('user', question);
    const history = [...messages, asked];
    setMessages(history);
    setInput('');
    setPending(true);
    try {
      const reply = await askLuna(question, history.filter((m) => m.id !== 'welcome'), userId, hasApiKey);
      const answer = chatMessage('assistant', reply.response, { type: reply.type, sources: reply.sources });
      setMessages((m) => [...m, answer]);
      setNow(answer.timestamp);
    } catch {
      const failed = chatMessage('assistant', FAILURE);
      setMessages((m) => [...m, failed]);
      setNow(failed.timestamp);
    } finally {
      setPending(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send(input);
    }
  }

  if (view !== 'open') {
    return (
      <button
        type="button"
        onClick={() => setView('open')}
        aria-label={fresh ? 'Open Luna, new reply' : 'Open Luna, the Sixdigit assistant'}
        className="fixed right-4 bottom-4 z-40 flex size-14 items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg transition-transform hover:scale-105 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none"
      >
        <Bot className="size-6" aria-hidden="true" />
        {fresh && <span className="absolute -top-1 -right-1 rounded-full bg-destructive px-1.5 py-0.5 text-[10px] font-semibold text-destructive-foreground">New</span>}
        {view === 'minimized' && !fresh && <span className="sr-only">(minimised)</span>}
      </button>
    );
  }

  return (
    <section
      role="dialog"
      aria-labelledby={titleId}
      onKeyDown={(e) => e.key === 'Escape' && setView('closed')}
      className="fixed inset-x-2 bottom-2 z-40 flex h-[min(500px,calc(100dvh-1rem))] flex-col overflow-hidden rounded-xl border bg-background shadow-2xl sm:inset-x-auto sm:right-4 sm:bottom-4 sm:w-96"
    >
      <header className="flex items-center justify-between gap-2 border-b bg-primary px-4 py-3 text-primary-foreground">
        <h2 id={titleId} className="flex items-center gap-2 font-semibold">
          <Sparkles className="size-4" aria-hidden="true" />
          Luna
          <span className="text-xs font-normal opacity-90">Sixdigit assistant</span>
        </h2>
        <span className="flex gap-1">
          <Button type="button" size="icon" variant="ghost" className="size-8 text-primary-foreground hover:bg-white/15 hover:text-primary-foreground" aria-label="Minimise Luna" onClick={() => setView('minimized')}>
            <Minus aria-hidden="true" />
          </Button>
          <Button type="button" size="icon" variant="ghost" className="size-8 text-primary-foreground hover:bg-white/15 hover:text-primary-foreground" aria-label="Close Luna" onClick={() => setView('closed')}>
            <X aria-hidden="true" />
          </Button>
        </span>
      </header>
      <div ref={listRef} tabIndex={0} className="flex-1 space-y-3 overflow-y-auto p-3 outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset" role="log" aria-live="polite" aria-label="Conversation with Luna">
        {messages.map((m) => (
          <div key={m.id} className={cn('max-w-[90%] rounded-lg px-3 py-2', m.role === 'user' ? 'ml-auto bg-primary text-primary-foreground' : 'bg-muted')}>
            {m.role === 'user' ? <p className="text-sm whitespace-pre-wrap">{m.content}</p> : <Markdown>{m.content}</Markdown>}
            {m.sources && m.sources.length > 0 && (
              <p className="mt-1 text-[11px] text-muted-foreground">Source: {m.sources.map((s) => `${s.title} › ${s.section}`).join('; ')}</p>
            )}
          </div>
        ))}
        {pending && (
          <p role="status" className="flex items-center gap-1 text-sm text-muted-foreground">
            <span className="inline-flex gap-0.5" aria-hidden="true">
              <span className="size-1.5 animate-bounce rounded-full bg-current" />
              <span className="size-1.5 animate-bounce rounded-full bg-current [animation-delay:120ms]" />
              <span className="size-1.5 animate-bounce rounded-full bg-current [animation-delay:240ms]" />
            </span>
            Luna is thinking…
          </p>
        )}
        {messages.length <= 1 && !pending && (
          <div className="flex flex-wrap gap-2" aria-label="Suggested questions">
            {SUGGESTIONS.map((s) => (
              <Button key={s.label} type="button" size="sm" variant="outline" onClick={() => void send(s.question)}>
                {s.label}
              </Button>
            ))}
          </div>
        )}
      </div>
      <form
        className="flex items-end gap-2 border-t p-2"
        onSubmit={(e) => {
          e.preventDefault();
          void send(input);
        }}
      >
        <label htmlFor={inputId} className="sr-only">
          Ask Luna
        </label>
        <textarea
          id={inputId}
          ref={inputRef}
          rows={2}
          value={input}
          disabled={pending}
          onChange={(e) => setInput(e.target.value.slice(0, 2000))}
          onKeyDown={onKeyDown}
          placeholder="Ask about the API, your credits, an error…"
          className="min-h-10 flex-1 resize-none rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none disabled:opacity-60"
        />
        <Button type="submit" size="icon" aria-label="Send" disabled={pending || !input.trim()}>
          <Send aria-hidden="true" />
        </Button>
      </form>
    </section>
  );
}
