import type { ComponentProps } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';
import remarkGfm from 'remark-gfm';

/** "Where SMS codes fail" → "where-sms-codes-fail" (heading anchors). */
export function headingId(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-');
}

function textOf(children: unknown): string {
  if (typeof children === 'string' || typeof children === 'number') return String(children);
  if (Array.isArray(children)) return children.map(textOf).join('');
  if (children && typeof children === 'object' && 'props' in children) return textOf((children as { props: { children?: unknown } }).props.children);
  return '';
}

const components: Components = {
  h2: ({ children }) => (
    <h2 id={headingId(textOf(children))} className="mt-12 scroll-mt-24 text-2xl font-semibold tracking-tight text-balance">
      {children}
    </h2>
  ),
  h3: ({ children }) => (
    <h3 id={headingId(textOf(children))} className="mt-8 scroll-mt-24 text-xl font-semibold tracking-tight">
      {children}
    </h3>
  ),
  p: ({ children }) => <p className="mt-5 leading-7">{children}</p>,
  ul: ({ children }) => <ul className="mt-5 list-disc space-y-2 pl-6 leading-7">{children}</ul>,
  ol: ({ children }) => <ol className="mt-5 list-decimal space-y-2 pl-6 leading-7">{children}</ol>,
  strong: ({ children }) => <strong className="font-semibold text-foreground">{children}</strong>,
  blockquote: ({ children }) => <blockquote className="mt-5 border-l-4 border-primary/40 pl-4 text-muted-foreground italic">{children}</blockquote>,
  a: ({ href = '', children }) =>
    href.startsWith('/') && !href.startsWith('/api/') ? (
      <Link to={href} className="font-medium text-primary underline underline-offset-4 hover:no-underline">
        {children}
      </Link>
    ) : (
      <a href={href} className="font-medium text-primary underline underline-offset-4 hover:no-underline" rel="noopener noreferrer">
        {children}
      </a>
    ),
  pre: ({ children }) => (
    // Focusable so keyboard users can scroll wide code sideways.
    <pre tabIndex={0} className="mt-5 overflow-x-auto rounded-lg bg-zinc-950 p-4 text-sm leading-6 text-zinc-100 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
      {children}
    </pre>
  ),
  code: ({ className, children, ...rest }: ComponentProps<'code'> & { node?: unknown }) => {
    const block = /language-/.test(className ?? '') || String(children).includes('\n');
    delete rest.node;
    return block ? (
      <code className={`font-mono ${className ?? ''}`}>{children}</code>
    ) : (
      <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.875em] break-words">{children}</code>
    );
  },
  table: ({ children }) => (
    <div className="mt-6 overflow-x-auto rounded-lg border" tabIndex={0} role="region" aria-label="Table">
      <table className="w-full border-collapse text-left text-sm">{children}</table>
    </div>
  ),
  thead: ({ children }) => <thead className="bg-muted/60">{children}</thead>,
  th: ({ children }) => <th className="border-b px-3 py-2 font-semibold whitespace-nowrap">{children}</th>,
  td: ({ children }) => <td className="border-b px-3 py-2 align-top">{children}</td>,
};

/**
 * An article's Markdown (GitHub-flavoured: tables, lists, code). react-markdown never renders
 * raw HTML from the source, so nothing in a file can inject markup or script.
 */
export function ArticleBody({ markdown }: { markdown: string }) {
  return (
    <div className="text-base text-foreground/90 [&>*:first-child]:mt-0">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {markdown}
      </ReactMarkdown>
    </div>
  );
}
