import { lazy, type ComponentType } from 'react';

/**
 * React.lazy for a chunk the app may have downloaded before it is first rendered. Plain lazy
 * suspends on its first render even when the chunk is already in, and React 19 then holds the
 * boundary's content back until 300 ms after its fallback showed (its fallback throttle): the
 * signed-in lobby painted ~0.35 s after its data. Once `preload` has resolved, the lazy component is
 * handed a thenable that is already fulfilled, which React reads without suspending.
 */
export function preloadableLazy<Module, Props extends object>(load: () => Promise<Module>, pick: (module: Module) => ComponentType<Props>) {
  let loaded: ComponentType<Props> | undefined;
  const preload = () =>
    load().then((module) => {
      loaded = pick(module);
      return module;
    });
  const Component = lazy(() => {
    if (!loaded) return preload().then((module) => ({ default: pick(module) }));
    const value = { default: loaded };
    // React calls then() at once and, the value being there, marks the lazy component resolved.
    const fulfilled = { status: 'fulfilled', value, then: (resolve: (resolved: typeof value) => void) => resolve(value) };
    return fulfilled as unknown as Promise<typeof value>;
  });
  return { Component, preload };
}
