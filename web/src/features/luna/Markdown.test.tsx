import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, ownSiteUrl } from './Markdown';

const HOSTILE = '**[Click here to approve](https://evil.example/phish) ![x](https://evil.example/pixel.png)** has a balance of **₹0.00**.';

describe('Markdown (Luna, the desk, the contact page)', () => {
  it('shows a link to another host as plain text, and loads no image from another host', () => {
    const { container } = render(<Markdown>{HOSTILE}</Markdown>);
    expect(container.querySelector('a')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toMatch(/Click here to approve\s+has a balance of ₹0\.00\./);
    expect(container.innerHTML).not.toContain('evil.example');
  });

  it('drops every form of a foreign or script URL: bare, protocol-relative, reference, autolink, javascript:, data:', () => {
    const markdown = [
      'See https://evil.example/bare and www.evil.example and <https://evil.example/auto>.',
      '[a](//evil.example/x) [b](javascript:alert(1)) [c][ref] ![d](data:image/png;base64,AAAA) ![e](//evil.example/e.png)',
      '',
      '[ref]: https://evil.example/ref',
    ].join('\n');
    const { container } = render(<Markdown>{markdown}</Markdown>);
    expect(container.querySelectorAll('a')).toHaveLength(0);
    expect(container.querySelectorAll('img')).toHaveLength(0);
    expect(container.innerHTML).not.toMatch(/href|src=/);
  });

  it('keeps links to our own pages and the docs, and our own images', () => {
    const { container } = render(
      <Markdown>{`Open [Contact](/contact), the [API docs](/api/v1/openapi.json), [this page](${window.location.origin}/business?tab=integration#key) and ![logo](/icon.svg).`}</Markdown>,
    );
    expect([...container.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['/contact', '/api/v1/openapi.json', '/business?tab=integration#key']);
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/icon.svg');
  });

  it('ownSiteUrl: same origin only', () => {
    expect(ownSiteUrl('/docs', 'https://sixdigit.example')).toBe('/docs');
    expect(ownSiteUrl('https://sixdigit.example/docs', 'https://sixdigit.example')).toBe('/docs');
    expect(ownSiteUrl('https://sixdigit.example.evil.example/docs', 'https://sixdigit.example')).toBeNull();
    expect(ownSiteUrl('http://sixdigit.example/docs', 'https://sixdigit.example')).toBeNull();
    expect(ownSiteUrl('  //evil.example', 'https://sixdigit.example')).toBeNull();
    expect(ownSiteUrl('javascript:alert(1)', 'https://sixdigit.example')).toBeNull();
  });
});
