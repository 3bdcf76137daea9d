import type { QueueEntry } from '@reel/protocol/client';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { clearToastsForTest, useToastStore } from '@/lib/toast-store';
import { mockFetch, setupI18n, setupSettings } from '@/testing/test-utils';
import { setQueueEntry, useQueueStore } from '../queue-store';
import { JoinQueueButton } from './join-queue-button';
import { QueueReadyCheck } from './queue-ready-check';

beforeAll(async () => {
  setupSettings();
  await setupI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearToastsForTest();
  useQueueStore.setState({ entry: null, readyUntilMs: null, ended: null });
});

const waiting: QueueEntry = {
  machineId: 3,
  machineName: 'Golden Reels 3',
  position: 2,
  length: 3,
  etaS: 540,
  ready: null,
};

describe('Join queue', () => {
  it('joins the line, shows the place and the estimated wait, and leaves it', async () => {
    const fetch = mockFetch({
      'GET /api/player/queue': () => ({ body: { status: true, code: 20000, entry: null } }),
      'POST /api/player/queue': () => ({ body: { status: true, code: 20000, entry: waiting } }),
      'DELETE /api/player/queue': () => ({ body: { status: true, code: 20000 } }),
    });
    render(<JoinQueueButton machineId={3} machineName="Golden Reels 3" />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Join queue/ }));
    expect(await screen.findByRole('status')).toHaveTextContent('In queue: 2 of 3 · about 9 min');
    const posted = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(posted?.[1]?.body))).toEqual({ machineId: 3 });

    await user.click(screen.getByRole('button', { name: 'Leave queue' }));
    expect(await screen.findByRole('button', { name: /^Join queue/ })).toBeVisible();
    expect(useQueueStore.getState().ended).toMatchObject({ reason: 'left', machineName: 'Golden Reels 3' });
  });

  it("says why the server refused, in the catalogue's words", async () => {
    mockFetch({
      'GET /api/player/queue': () => ({ body: { status: true, code: 20000, entry: null } }),
      'POST /api/player/queue': () => ({
        status: 409,
        body: { status: false, code: 40931, ErrorMessage: 'free' },
      }),
    });
    render(<JoinQueueButton machineId={3} machineName="Golden Reels 3" />);
    await userEvent.setup().click(screen.getByRole('button', { name: /^Join queue/ }));
    await vi.waitFor(() =>
      expect(useToastStore.getState().toasts.map((t) => t.message)).toContain(
        'This machine is free: just join it',
      ),
    );
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('the ready check', () => {
  function renderCheck() {
    const router = createMemoryRouter(
      [
        { path: '/lobby', element: <QueueReadyCheck /> },
        { path: '/game/:id/:name', element: <p>game screen</p> },
      ],
      { initialEntries: ['/lobby'] },
    );
    render(<RouterProvider router={router} />);
    return router;
  }

  it('asks with the seconds left, blinks the title, and Play now opens the machine', async () => {
    const fetch = mockFetch({
      'GET /api/player/queue': () => ({ body: { status: true, code: 20000, entry: null } }),
    });
    const router = renderCheck();
    document.title = 'Reel Live';
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await act(async () => undefined);
    act(() =>
      setQueueEntry({
        ...waiting,
        position: 1,
        etaS: 0,
        ready: { until: '2026-11-27T10:00:15.000Z', remainingMs: 15_000 },
      }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Your turn!' });
    expect(dialog).toHaveTextContent('Golden Reels 3 is free and held for you');
    expect(dialog).toHaveTextContent(/1[45] s left/);
    await vi.waitFor(() => expect(document.title).toBe('Your turn!'), { timeout: 3_000 });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Play now' }));
    expect(router.state.location.pathname).toBe('/game/3/golden-reels-3');
    expect(document.title).toBe('Reel Live');
  });

  it('Pass leaves the line; a turn that passed is said once', async () => {
    const fetch = mockFetch({
      'GET /api/player/queue': () => ({ body: { status: true, code: 20000, entry: null } }),
      'DELETE /api/player/queue': () => ({ body: { status: true, code: 20000 } }),
    });
    renderCheck();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await act(async () => undefined);
    act(() =>
      setQueueEntry({
        ...waiting,
        position: 1,
        etaS: 0,
        ready: { until: '2026-11-27T10:00:15.000Z', remainingMs: 15_000 },
      }),
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Pass' }));
    await vi.waitFor(() =>
      expect(fetch.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`)).toContain(
        'DELETE /api/player/queue',
      ),
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
