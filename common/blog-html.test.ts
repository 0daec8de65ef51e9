// @vitest-environment jsdom
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingId, parseArticle, slugFromPath } from './blog';
import { ARTICLE_CLASSES, articleHtml } from './blog-html';

// (import.meta.url is not a file: URL under jsdom.)
const BLOG_DIR = join(import.meta.dirname, '../content/blog');

/** The HTML as the browser will hold it. */
function render(markdown: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = articleHtml(markdown);
  return root;
}

const classOf = (element: Element | null) => element?.getAttribute('class');

describe('articleHtml', () => {
  it('gives h2 and h3 an anchor id from their text (inline code included) and the article look', () => {
    const root = render('## Where SMS codes fail\n\n### Verify with `POST /verify`\n');
    const h2 = root.querySelector('h2')!;
    expect(h2.id).toBe('where-sms-codes-fail');
    expect(classOf(h2)).toBe(ARTICLE_CLASSES.h2);
    const h3 = root.querySelector('h3')!;
    expect(h3.id).toBe(headingId('Verify with POST /verify'));
    expect(h3.id).toBe('verify-with-post-verify');
    expect(classOf(h3)).toBe(ARTICLE_CLASSES.h3);
  });

  it('styles paragraphs, lists, strong text and quotes, and keeps an ordered list’s start', () => {
    const root = render('Some **bold** text.\n\n- a\n- b\n\n3. three\n4. four\n\n> quoted\n');
    expect(classOf(root.querySelector('p'))).toBe(ARTICLE_CLASSES.p);
    expect(classOf(root.querySelector('strong'))).toBe(ARTICLE_CLASSES.strong);
    expect(classOf(root.querySelector('ul'))).toBe(ARTICLE_CLASSES.ul);
    expect(classOf(root.querySelector('ol'))).toBe(ARTICLE_CLASSES.ol);
    expect(root.querySelector('ol')!.getAttribute('start')).toBe('3');
    expect(classOf(root.querySelector('blockquote'))).toBe(ARTICLE_CLASSES.blockquote);
  });

  it('makes code blocks focusable and keeps their language; inline code gets the inline look', () => {
    const root = render('Run `curl`:\n\n```bash\ncurl -X POST https://example.com\n```\n\n```\nplain\n```\n');
    const [bash, plain] = [...root.querySelectorAll('pre')];
    expect(bash!.getAttribute('tabindex')).toBe('0');
    expect(classOf(bash!)).toBe(ARTICLE_CLASSES.pre);
    expect(classOf(bash!.querySelector('code'))).toBe(`${ARTICLE_CLASSES.blockCode} language-bash`);
    expect(bash!.textContent).toBe('curl -X POST https://example.com\n');
    expect(classOf(plain!.querySelector('code'))).toBe(ARTICLE_CLASSES.blockCode);
    expect(classOf(root.querySelector('p code'))).toBe(ARTICLE_CLASSES.inlineCode);
  });

  it('wraps a table in a focusable region named "Table" and styles its head and cells', () => {
    const root = render('| Channel | Cost |\n|:--|--:|\n| SMS | ₹0.25 |\n');
    const region = root.querySelector('div')!;
    expect(region.getAttribute('role')).toBe('region');
    expect(region.getAttribute('aria-label')).toBe('Table');
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(classOf(region)).toBe(ARTICLE_CLASSES.tableRegion);
    const table = region.querySelector(':scope > table')!;
    expect(classOf(table)).toBe(ARTICLE_CLASSES.table);
    expect(classOf(table.querySelector('thead'))).toBe(ARTICLE_CLASSES.thead);
    expect(classOf(table.querySelector('th'))).toBe(ARTICLE_CLASSES.th);
    expect(classOf(table.querySelector('td'))).toBe(ARTICLE_CLASSES.td);
    expect(table.querySelector('td')!.textContent).toBe('SMS');
  });

  it('leaves links to the app’s pages for the router and marks every other link noopener noreferrer', () => {
    const root = render('[pricing](/pricing) [sign in](/api/login) [site](https://example.com) [other host](//evil.example) [mail](mailto:a@b.c)');
    const rel = (name: string) => [...root.querySelectorAll('a')].find((a) => a.textContent === name)!.getAttribute('rel');
    expect(rel('pricing')).toBeNull();
    for (const name of ['sign in', 'site', 'other host', 'mail']) expect(rel(name)).toBe('noopener noreferrer');
    for (const a of root.querySelectorAll('a')) expect(classOf(a)).toBe(ARTICLE_CLASSES.a);
  });

  it('never lets raw HTML, script, event handlers or javascript: links through', () => {
    const html = articleHtml(
      [
        'Hi <script>alert(1)</script> <img src="x" onerror="alert(1)"> <iframe src="https://evil.example"></iframe>',
        '<a href="javascript:alert(2)" class="x" onclick="alert(3)">raw link</a>',
        '<div style="position:fixed" id="login">overlay</div>',
        '[x](javascript:alert(4)) [y](data:text/html,<script>alert(5)</script>) [z](vbscript:msgbox)',
        '![img](javascript:alert(6))',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<script|<iframe|<img[^>]*onerror|onerror=|onclick=|style=|javascript:|vbscript:|data:text/i);
    const root = document.createElement('div');
    root.innerHTML = html;
    expect(root.querySelector('script, iframe, [onerror], [onclick], [style], #login')).toBeNull();
    for (const a of root.querySelectorAll('a')) expect(a.getAttribute('href') ?? '').toMatch(/^$|^[/#]|^https?:/);
  });

  it('renders every article: each heading has an id, unique within the article, and the text survives', () => {
    const files = readdirSync(BLOG_DIR).filter((f) => f.endsWith('.md'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const article = parseArticle(slugFromPath(file), readFileSync(join(BLOG_DIR, file), 'utf8'));
      const root = render(article.body);
      const ids = [...root.querySelectorAll('h2, h3')].map((h) => h.id);
      expect(ids.length, file).toBeGreaterThan(0);
      expect(ids.every(Boolean), file).toBe(true);
      expect(new Set(ids).size, file).toBe(ids.length);
      expect(root.textContent!.length, file).toBeGreaterThan(article.body.length / 2);
    }
  });
});
