import { type DependencyList, useCallback, useEffect, useState } from 'react';

export type Loaded<T> = {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again (after a write the page made), keeping what it shows until the new answer arrives. */
  reload: () => void;
};

/**
 * The state of one read: what it answered, or why it failed. A newer load wins over an older one still in
 * flight, and nothing is set after the component is gone.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: undefined, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ data: s.data, error, loading: false }));
      },
    );
    return () => controller.abort();
  }, [...deps, generation]);
  // Loading from the moment of the call, not from the effect after the next render: a page that reloads
  // and then navigates must not be drawn once more from the answer being replaced.
  const reload = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    setGeneration((g) => g + 1);
  }, []);
  return { ...state, reload };
}
