import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';

/** Luna's Markdown: no raw HTML (react-markdown escapes it), code in monospace blocks. */
export function Markdown({ children }: { children: string }) {
  return (
    <div className="space-y-2 text-sm leading-relaxed break-words [&_a]:text-primary [&_a]:underline [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:font-mono [&_code]:text-xs [&_li]:ml-4 [&_ol]:list-decimal [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-zinc-900 [&_pre]:p-3 [&_pre]:text-zinc-50 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_pre_code]:text-zinc-50 [&_ul]:list-disc">
      {/* Code blocks scroll sideways: focusable, so keyboard users can scroll them too. */}
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={{ pre: ({ node: _node, ...props }) => <pre tabIndex={0} {...props} /> }}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
