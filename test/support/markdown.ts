import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import type { Node } from 'unist';

/** What a Markdown renderer (react-markdown uses the same remark + GFM) makes of `markdown`. */
export function parseMarkdown(markdown: string) {
  const tree = unified().use(remarkParse).use(remarkGfm).parse(markdown);
  const types = new Set<string>();
  const texts: string[] = [];
  const codes: string[] = [];
  visit(tree, (node: Node & { value?: string }) => {
    types.add(node.type);
    if (node.type === 'text') texts.push(node.value!);
    if (node.type === 'inlineCode') codes.push(node.value!);
  });
  return { types, text: texts.join(''), codes };
}
