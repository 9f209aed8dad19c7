import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

type PageModule<P> = { default: ComponentType<P> };
export type Page<P> = LazyExoticComponent<ComponentType<P>> & { preload: () => Promise<unknown> };

/**
 * A page in a chunk of its own (React.lazy) that can also be fetched ahead of its first render. A page
 * whose chunk is already here renders at once: the factory then hands React a thenable that resolves
 * synchronously, so nothing suspends and no loading screen is shown (React holds a page revealed after a
 * loading screen back by up to 300 ms).
 */
export function page<P>(load: () => Promise<PageModule<P>>): Page<P> {
  let loaded: PageModule<P> | undefined;
  let pending: Promise<PageModule<P>> | undefined;
  const preload = () =>
    (pending ??= load().then((module) => {
      loaded = module;
      return module;
    }));
  const component = lazy(() => {
    const ready = loaded;
    // biome-ignore lint/suspicious/noThenProperty: a thenable that settles synchronously is the point
    if (ready) return { then: (resolve: (module: PageModule<P>) => void) => resolve(ready) } as never;
    return preload();
  });
  return Object.assign(component, { preload });
}
