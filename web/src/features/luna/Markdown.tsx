import ReactMarkdown, { defaultUrlTransform, type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * A URL in rendered Markdown kept only when it stays on this site: a path such as `/contact`,
 * `/api/v1/openapi.json` (the docs) or `#errors`, or an absolute URL of this very origin. Anything
 * else — another host, `//host`, `javascript:`, `data:` — gives null.
 */
export function ownSiteUrl(url: string, origin: string = window.location.origin): string | null {
  const safe = defaultUrlTransform(url.trim());
  if (!safe) return null;
  try {
    const resolved = new URL(safe, `${origin}/`);
    return resolved.origin === origin ? `${resolved.pathname}${resolved.search}${resolved.hash}` : null;
  } catch {
    return null;
  }
}

/*
 * What Luna says is Markdown, and it can carry text an account wrote (a company name, a question
 * the model repeats) into the financial desk and the contact pages. Whatever the server escaped or
 * not, rendered Markdown reaches no other host (issue 18, item 3): an image from elsewhere is not
 * loaded (it would tell that host who looked, and when), and a link to elsewhere is shown as its
 * plain text (no "Click here to approve" pointing to a phishing page).
 */
const urlTransform = (url: string) => ownSiteUrl(url) ?? '';

const components: Components = {
  // Code blocks scroll sideways: focusable, so keyboard users can scroll them too.
  pre: ({ node: _node, ...props }) => <pre tabIndex={0} {...props} />,
  a: ({ node: _node, href, children, ...props }) =>
    href ? (
      <a href={href} {...props}>
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ node: _node, src, alt, ...props }) => (typeof src === 'string' && src ? <img src={src} alt={alt ?? ''} {...props} /> : null),
};

/** Luna's Markdown, the one renderer for it: no raw HTML (react-markdown escapes it), code in monospace blocks, nothing from or to other hosts. */
export function Markdown({ children }: { children: string }) {
  return (
    <div className="space-y-2 text-sm leading-relaxed break-words [&_a]:text-primary [&_a]:underline [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:font-mono [&_code]:text-xs [&_li]:ml-4 [&_ol]:list-decimal [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-zinc-900 [&_pre]:p-3 [&_pre]:text-zinc-50 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_pre_code]:text-zinc-50 [&_ul]:list-disc">
      <ReactMarkdown remarkPlugins={[remarkGfm]} urlTransform={urlTransform} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
