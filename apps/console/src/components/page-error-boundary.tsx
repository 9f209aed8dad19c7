import { Component, type ErrorInfo, type ReactNode } from 'react';

type State = { error: Error | null };

/**
 * What a page that failed to load or to render shows instead of a blank window: a chunk missing after a
 * deploy, a network failure, a defect. Reloading fetches the current build.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('console page failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <section role="alert">
        <h1>This page could not be shown</h1>
        <p>{this.state.error.message}</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </section>
    );
  }
}
