import { render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SITE_DEFAULT_HEADS } from '@common/site-heads';
import { useDocumentTitle } from './use-document-title';

function Page({ title, description }: { title: string; description?: string }) {
  useDocumentTitle(title, description);
  return null;
}

const description = () => document.head.querySelector('meta[name="description"]')?.getAttribute('content');

afterEach(() => {
  document.head.innerHTML = '';
  document.title = '';
});

describe('useDocumentTitle', () => {
  it('sets the title and description, and on leaving puts back the site\'s own head, not the first page\'s', () => {
    // As the server sends a blog post: its own title and description.
    document.title = 'A post · Sixdigit Blog';
    document.head.innerHTML = '<meta name="sixdigit-variant" content="main"><meta name="description" content="The post">';
    const { unmount } = render(<Page title="Payment methods" description="How to pay" />);
    expect(document.title).toBe('Payment methods');
    expect(description()).toBe('How to pay');
    unmount();
    expect(document.title).toBe(SITE_DEFAULT_HEADS.main.title);
    expect(description()).toBe(SITE_DEFAULT_HEADS.main.description);
  });

  it('uses the enterprise defaults on the enterprise site and adds a description tag when there is none', () => {
    document.head.innerHTML = '<meta name="sixdigit-variant" content="enterprise">';
    const { unmount } = render(<Page title="Docs" description="API docs" />);
    expect(description()).toBe('API docs');
    unmount();
    expect(document.title).toBe(SITE_DEFAULT_HEADS.enterprise.title);
    expect(description()).toBe(SITE_DEFAULT_HEADS.enterprise.description);
  });

  it('leaves the description alone for a page that sets only a title', () => {
    document.head.innerHTML = '<meta name="description" content="Unchanged">';
    render(<Page title="Contact" />);
    expect(document.title).toBe('Contact');
    expect(description()).toBe('Unchanged');
  });
});
