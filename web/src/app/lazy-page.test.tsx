import { act, render, screen } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazy-page';

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount((c) => c + 1)}>
      {label} {count}
    </button>
  );
}

describe('lazyPage', () => {
  it('shows the Suspense fallback until the chunk arrives, then the page', async () => {
    let deliver: (c: typeof Counter) => void = () => {};
    const Page = lazyPage(() => new Promise<typeof Counter>((resolve) => (deliver = resolve)));
    render(
      <Suspense fallback={<p>waiting</p>}>
        <Page label="Taps" />
      </Suspense>,
    );
    expect(screen.getByText('waiting')).toBeInTheDocument();
    expect(Page.loaded).toBe(false);
    await act(async () => deliver(Counter));
    expect(screen.getByRole('button', { name: 'Taps 0' })).toBeInTheDocument();
    expect(Page.loaded).toBe(true);
  });

  it('renders without suspending once preloaded, and loads the chunk only once', async () => {
    const load = vi.fn(async () => Counter);
    const Page = lazyPage(load);
    await Promise.all([Page.preload(), Page.preload()]);
    render(
      <Suspense fallback={<p>waiting</p>}>
        <Page label="Taps" />
      </Suspense>,
    );
    expect(screen.queryByText('waiting')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Taps 0' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps the page mounted (and its state) across re-renders after loading', async () => {
    const Page = lazyPage(async () => Counter);
    const view = render(
      <Suspense fallback={<p>waiting</p>}>
        <Page label="Taps" />
      </Suspense>,
    );
    const button = await screen.findByRole('button', { name: 'Taps 0' });
    await act(async () => button.click());
    view.rerender(
      <Suspense fallback={<p>waiting</p>}>
        <Page label="Clicks" />
      </Suspense>,
    );
    expect(screen.getByRole('button', { name: 'Clicks 1' })).toBeInTheDocument();
  });

  it('tries the chunk again after a failed load', async () => {
    const load = vi.fn<() => Promise<typeof Counter>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Counter);
    const Page = lazyPage(load);
    await expect(Page.preload()).rejects.toThrow('offline');
    await Page.preload();
    expect(Page.loaded).toBe(true);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
