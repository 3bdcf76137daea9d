import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { preloadableLazy } from './preloadable-lazy';

const chunk = () => Promise.resolve({ Greeting: ({ name }: { name: string }) => <p>hello {name}</p> });

function renderInSuspense(node: React.ReactNode) {
  return render(<Suspense fallback={<p>loading</p>}>{node}</Suspense>);
}

describe('preloadableLazy', () => {
  it('renders a preloaded chunk in the first commit, without showing the fallback', async () => {
    const { Component, preload } = preloadableLazy(chunk, (module) => module.Greeting);
    await preload();
    act(() => {
      renderInSuspense(<Component name="player" />);
    });
    expect(screen.getByText('hello player')).toBeInTheDocument();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('suspends like React.lazy when the chunk was not preloaded', async () => {
    const { Component } = preloadableLazy(chunk, (module) => module.Greeting);
    act(() => {
      renderInSuspense(<Component name="guest" />);
    });
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(await screen.findByText('hello guest')).toBeInTheDocument();
  });
});
