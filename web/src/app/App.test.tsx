import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test/render-app';
import { App } from './App';

function setVariantMeta(content: string) {
  let meta = document.head.querySelector<HTMLMetaElement>('meta[name="sixdigit-variant"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'sixdigit-variant';
    document.head.append(meta);
  }
  meta.content = content;
}

afterEach(() => {
  document.head.querySelector('meta[name="sixdigit-variant"]')?.remove();
  vi.unstubAllGlobals();
});

describe('App', () => {
  it('shows the enterprise site when the server marks the page as enterprise', () => {
    setVariantMeta('enterprise');
    stubServer(null);
    render(<App />);
    expect(
      screen.getByRole('heading', { level: 1, name: 'TOTP verification at $0.0038 per verification' }),
    ).toBeInTheDocument();
  });

  it('shows the main site when the meta tag says main', async () => {
    setVariantMeta('main');
    stubServer(null);
    render(<App />);
    expect(await screen.findByRole('heading', { level: 1, name: /Replace SMS OTPs with TOTP/ })).toBeInTheDocument();
  });

  it('has a notification region reachable with F8', () => {
    setVariantMeta('enterprise');
    stubServer(null);
    render(<App />);
    expect(screen.getByRole('region', { name: 'Notifications (F8)' })).toBeInTheDocument();
  });
});
