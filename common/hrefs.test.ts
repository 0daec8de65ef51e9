import { describe, expect, it } from 'vitest';
import { isInternalHref } from './hrefs';

describe('isInternalHref', () => {
  it('routes the app\'s own pages', () => {
    for (const href of ['/', '/pricing', '/blog/totp-vs-sms-security', '/payment-methods?x=1', '/#docs']) expect(isInternalHref(href), href).toBe(true);
  });

  it('leaves the API, the feeds and other sites to the browser', () => {
    for (const href of ['/api/login', '/blog/feed.xml', '/sitemap.xml?x', 'https://example.com', '//example.com/x', 'mailto:a@b.c', '#faq', 'relative'])
      expect(isInternalHref(href), href).toBe(false);
  });
});
