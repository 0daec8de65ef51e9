import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ArticleBody } from './ArticleBody';

const html = [
  '<p><a href="/pricing">pricing</a> <a href="/api/login" rel="noopener noreferrer">sign in</a>',
  '<a href="https://example.com" rel="noopener noreferrer">site</a> <a href="#faq">faq</a> <a href="/pricing"><strong>bold pricing</strong></a></p>',
].join(' ');

function Where() {
  return <output aria-label="path">{useLocation().pathname + useLocation().hash}</output>;
}

function renderBody() {
  return render(
    <MemoryRouter initialEntries={['/blog/post']}>
      <Routes>
        <Route path="*" element={<><ArticleBody article={{ html }} /><Where /></>} />
      </Routes>
    </MemoryRouter>,
  );
}

const path = () => screen.getByRole('status', { name: 'path' }).textContent;

describe('ArticleBody', () => {
  it('shows the article’s HTML as it is', () => {
    renderBody();
    expect(screen.getByRole('link', { name: 'pricing' })).toHaveAttribute('href', '/pricing');
    expect(screen.getByRole('link', { name: 'site' })).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('opens a link to one of the app’s pages with the router (also from inside the link’s text)', async () => {
    const user = userEvent.setup();
    renderBody();
    await user.click(screen.getByRole('link', { name: 'pricing' }));
    expect(path()).toBe('/pricing');
    await user.click(screen.getByText('bold pricing'));
    expect(path()).toBe('/pricing');
  });

  it('leaves modified and non-primary clicks to the browser (new tab, new window)', () => {
    renderBody();
    const link = screen.getByRole('link', { name: 'pricing' });
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }]) {
      // fireEvent returns false when a listener cancelled the default (the browser's own navigation).
      expect(fireEvent.click(link, init), JSON.stringify(init)).toBe(true);
    }
    expect(path()).toBe('/blog/post');
  });

  it('leaves server, external and in-page links to the browser', () => {
    renderBody();
    for (const name of ['sign in', 'site', 'faq']) expect(fireEvent.click(screen.getByRole('link', { name })), name).toBe(true);
    expect(path()).toBe('/blog/post');
  });
});
