import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PageOriginProvider, usePageOrigin } from './page-origin';

function Origin() {
  return <p>{usePageOrigin()}</p>;
}

describe('usePageOrigin', () => {
  afterEach(() => document.head.querySelectorAll('link[rel="canonical"]').forEach((link) => link.remove()));

  it('uses the origin the server rendered with when one is given', () => {
    render(
      <PageOriginProvider origin="https://sixdigit.example.com">
        <Origin />
      </PageOriginProvider>,
    );
    expect(screen.getByText('https://sixdigit.example.com')).toBeTruthy();
  });

  it('in the browser, takes the canonical link\'s origin, so hydration agrees with the server whatever name the visitor used', () => {
    const link = document.createElement('link');
    link.rel = 'canonical';
    link.href = 'https://sixdigit.example.com/blog';
    document.head.appendChild(link);
    render(<Origin />);
    expect(screen.getByText('https://sixdigit.example.com')).toBeTruthy();
  });

  it('falls back to the window\'s origin on pages without a canonical link', () => {
    render(<Origin />);
    expect(screen.getByText(window.location.origin)).toBeTruthy();
  });
});
