import { Component, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';

/**
 * Pages are fetched on demand; if a page's chunk cannot be loaded (no network, or a new
 * release removed the old files) the visitor is told so and offered a reload instead of a
 * blank screen. Render errors of a page land here too.
 */
export class PageLoadErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { error: Error | null; resetKey?: string }> {
  override state: { error: Error | null; resetKey?: string } = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  static getDerivedStateFromProps(props: { resetKey?: string }, state: { error: Error | null; resetKey?: string }) {
    // Navigating elsewhere clears the error, so one broken page does not break the next.
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="mx-auto flex max-w-md flex-1 flex-col items-start justify-center gap-3 px-4 py-16">
        <h1 className="text-xl font-semibold tracking-tight">This page could not be loaded</h1>
        <p className="text-sm text-muted-foreground">
          Check your connection and reload. If Sixdigit was just updated, reloading fetches the new version.
        </p>
        <Button type="button" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </div>
    );
  }
}
