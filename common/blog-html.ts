/**
 * An article's Markdown turned into sanitised HTML, at build time (the Vite plugin in
 * scripts/vite-blog-articles.ts), so the browser ships HTML strings and no Markdown parser:
 * parsing ~10 KB of Markdown in one render was a long main-thread task on every post.
 *
 * GitHub-flavoured Markdown (tables, lists, code). Raw HTML in the source is dropped by
 * remark-rehype and everything is then sanitised with GitHub's schema, widened only by the exact
 * classes and attributes added here, so nothing in a file can inject markup, script or a
 * `javascript:` link.
 */
import type { Element, ElementContent, Properties, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { headingId } from './blog.ts';
import { isInternalHref } from './hrefs.ts';

/** The article's look: what ArticleBody's react-markdown components used to add (Tailwind classes). */
export const ARTICLE_CLASSES = {
  h2: 'mt-12 scroll-mt-24 text-2xl font-semibold tracking-tight text-balance',
  h3: 'mt-8 scroll-mt-24 text-xl font-semibold tracking-tight',
  p: 'mt-5 leading-7',
  ul: 'mt-5 list-disc space-y-2 pl-6 leading-7',
  ol: 'mt-5 list-decimal space-y-2 pl-6 leading-7',
  strong: 'font-semibold text-foreground',
  blockquote: 'mt-5 border-l-4 border-primary/40 pl-4 text-muted-foreground italic',
  a: 'font-medium text-primary underline underline-offset-4 hover:no-underline',
  pre: 'mt-5 overflow-x-auto rounded-lg bg-zinc-950 p-4 text-sm leading-6 text-zinc-100 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
  blockCode: 'font-mono',
  inlineCode: 'rounded bg-muted px-1.5 py-0.5 font-mono text-[0.875em] break-words',
  tableRegion: 'mt-6 overflow-x-auto rounded-lg border',
  table: 'w-full border-collapse text-left text-sm',
  thead: 'bg-muted/60',
  th: 'border-b px-3 py-2 font-semibold whitespace-nowrap',
  td: 'border-b px-3 py-2 align-top',
} as const;

const classes = (key: keyof typeof ARTICLE_CLASSES) => ARTICLE_CLASSES[key].split(' ');

/** Adds the ids, classes and focusable scroll regions to the tree remark-rehype made. */
function articleLook() {
  return (tree: Root) => {
    const visit = (parent: Root | Element) => {
      parent.children = parent.children.map((child) => (child.type === 'element' ? style(child, parent) : child));
    };
    const style = (node: Element, parent: Root | Element): ElementContent => {
      visit(node);
      const props: Properties = node.properties;
      switch (node.tagName) {
        case 'h2':
        case 'h3':
          node.properties = { id: headingId(toString(node)), className: classes(node.tagName) };
          break;
        case 'p':
        case 'ul':
        case 'strong':
        case 'blockquote':
        case 'thead':
        case 'th':
        case 'td':
          node.properties = { className: [...classes(node.tagName), ...taskListClass(props)] };
          break;
        case 'ol':
          node.properties = { start: props.start, className: [...classes('ol'), ...taskListClass(props)] };
          break;
        case 'a': {
          const href = typeof props.href === 'string' ? props.href : '';
          node.properties = { ...props, className: classes('a'), ...(isInternalHref(href) ? {} : { rel: ['noopener', 'noreferrer'] }) };
          break;
        }
        case 'pre':
          // Focusable so keyboard users can scroll wide code sideways.
          node.properties = { tabIndex: 0, className: classes('pre') };
          break;
        case 'code': {
          const language = Array.isArray(props.className) ? props.className.filter((c) => /^language-./.test(String(c))) : [];
          const block = parent.type === 'element' && parent.tagName === 'pre';
          node.properties = { className: block ? [...classes('blockCode'), ...language] : classes('inlineCode') };
          break;
        }
        case 'table':
          // Wide tables scroll inside a focusable, named region instead of widening the page.
          node.properties = { className: classes('table') };
          return {
            type: 'element',
            tagName: 'div',
            properties: { className: classes('tableRegion'), tabIndex: 0, role: 'region', ariaLabel: 'Table' },
            children: [node],
          };
      }
      return node;
    };
    visit(tree);
  };
}

/** GFM task lists mark their list with a class; keep it (GitHub's schema allows exactly that one). */
function taskListClass(props: Properties): string[] {
  return Array.isArray(props.className) ? props.className.map(String).filter((c) => c === 'contains-task-list') : [];
}

type AttributeDefinition = NonNullable<NonNullable<typeof defaultSchema.attributes>[string]>[number];

/**
 * The tag's attributes in GitHub's schema, with its one `className` rule replaced by one that
 * allows GitHub's classes and ours (the sanitiser reads only the first rule for a property).
 */
function allow(tag: string, keys: (keyof typeof ARTICLE_CLASSES)[], ...extra: AttributeDefinition[]): AttributeDefinition[] {
  const github = defaultSchema.attributes?.[tag] ?? [];
  const githubClasses = github.flatMap((rule) => (Array.isArray(rule) && rule[0] === 'className' ? rule.slice(1) : []));
  const others = github.filter((rule) => !(Array.isArray(rule) && rule[0] === 'className'));
  return [...others, ['className', ...githubClasses, ...keys.flatMap(classes)], ...extra];
}

/** GitHub's schema plus exactly what articleLook adds. */
const schema = {
  ...defaultSchema,
  // Heading ids are ours (made from the heading text); raw HTML never reaches this point, so
  // nothing else can set an id to clobber.
  clobber: (defaultSchema.clobber ?? []).filter((name) => name !== 'id'),
  attributes: {
    ...defaultSchema.attributes,
    h2: allow('h2', ['h2']),
    h3: allow('h3', ['h3']),
    p: allow('p', ['p']),
    ul: allow('ul', ['ul']),
    ol: allow('ol', ['ol']),
    strong: allow('strong', ['strong']),
    blockquote: allow('blockquote', ['blockquote']),
    a: allow('a', ['a'], ['rel', 'noopener', 'noreferrer']),
    pre: allow('pre', ['pre']),
    code: allow('code', ['blockCode', 'inlineCode']),
    div: allow('div', ['tableRegion'], ['role', 'region'], ['ariaLabel', 'Table']),
    table: allow('table', ['table']),
    thead: allow('thead', ['thead']),
    th: allow('th', ['th']),
    td: allow('td', ['td']),
  },
};

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(articleLook).use(rehypeSanitize, schema).use(rehypeStringify);

/** The article body's HTML, safe to set as innerHTML. */
export function articleHtml(markdown: string): string {
  return String(processor.processSync(markdown));
}
