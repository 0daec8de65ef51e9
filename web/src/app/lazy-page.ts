import { createElement, lazy, useState, type ComponentType, type FunctionComponent } from 'react';

export interface LazyPage<P extends object = object> extends FunctionComponent<P> {
  /** Starts loading the page's chunk (once); resolves when it is ready to render. */
  preload(): Promise<void>;
  /** Whether the chunk has loaded, so the page renders without suspending. */
  readonly loaded: boolean;
}

/**
 * A route component whose code is fetched on first use (React.lazy), so the landing page does
 * not download the signed-in app. Unlike a bare React.lazy it can be preloaded (when we know
 * which page comes next, e.g. as soon as the session says "signed in"), and once loaded it
 * renders synchronously — a later visit, or a test that preloaded, never shows the fallback.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let component: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;

  const fetchComponent = (): Promise<ComponentType<P>> => {
    pending ??= load().then(
      (loaded) => (component = loaded),
      (error: unknown) => {
        // A failed chunk (network, new deploy) may be retried on the next visit.
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const Suspending = lazy(async () => ({ default: await fetchComponent() }));

  function Page(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component on a
    // later render would remount the page and lose its state.
    const [Chosen] = useState<ComponentType<P>>(() => component ?? Suspending);
    return createElement(Chosen, props);
  }

  return Object.defineProperties(Page, {
    preload: { value: () => fetchComponent().then(() => undefined) },
    loaded: { get: () => component !== undefined },
  }) as LazyPage<P>;
}
