import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../../../test/support/markdown';
import { escapeMarkdown, markdownCode } from './markdown';

const HOSTILE = [
  '[Click here to approve](https://evil.example/phish) ![x](https://evil.example/pixel.png)',
  '<img src="https://evil.example/x.png"> <a href="https://evil.example">a</a>',
  'https://evil.example/bare www.evil.example mail@evil.example',
  '[ref][1]\n\n[1]: https://evil.example/ref',
  '**bold** _em_ ~~gone~~ `code` \\[escaped\\] | a | b |',
  '# Heading\n- item\n```\nfence\n```',
  'Acme & Sons (India) Pvt. Ltd.',
];

describe('escapeMarkdown', () => {
  it.each(HOSTILE)('keeps account data as plain text — no link, image, HTML, emphasis or block: %s', (value) => {
    const parsed = parseMarkdown(`Business: **${escapeMarkdown(value)}** has ₹0.`);
    for (const type of ['link', 'image', 'html', 'linkReference', 'imageReference', 'definition', 'emphasis', 'delete', 'inlineCode', 'code', 'heading', 'list', 'table']) {
      expect(parsed.types, type).not.toContain(type);
    }
    // Shown exactly as typed (line breaks become spaces; the word joiners are invisible).
    expect(parsed.text.replaceAll('\u2060', '')).toBe(`Business: ${value.replace(/\n+/g, ' ')} has ₹0.`);
  });
});

describe('markdownCode', () => {
  it.each(['alice', 'a`b', '``x``', '`start', 'end`', '[x](https://evil.example)'])('is one code span holding exactly the value: %s', (value) => {
    const parsed = parseMarkdown(`user ${markdownCode(value)} failed`);
    expect(parsed.codes).toEqual([value]);
    expect(parsed.types).not.toContain('link');
  });
});
