import type { SlotSessionRow } from '@reel/protocol/client';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryRoot, queryClient } from '@/lib/query-client';
import { mockFetch, setupI18n, setupSettings } from '@/testing/test-utils';
import { SessionSummary, SessionSummaryPanel } from './session-summary';

beforeAll(async () => {
  setupSettings();
  await setupI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const closed: SlotSessionRow = {
  id: 's-42',
  machine: 'Lucky 7',
  machineId: 7,
  brand: 'Lucky',
  start: '2026-11-27T10:00:00.000Z',
  end: '2026-11-27T11:02:05.000Z',
  duration_s: 3725,
  spin_count: 37,
  free_spin_count: 4,
  cash_in: 5000,
  cash_out: 3250,
  net: -1750,
  status: 'closed',
};

const money = (cents: number) => `₺${(cents / 100).toFixed(2)}`;

function figures(panel: HTMLElement) {
  return within(within(panel).getByTestId('session-summary'))
    .getAllByRole('definition')
    .map((cell) => cell.textContent);
}

describe('the session summary', () => {
  it("shows the closed session's time played, spins, money in and out and net position as its /slot-sessions row", async () => {
    const onClose = vi.fn();
    render(<SessionSummaryPanel row={closed} money={money} onClose={onClose} />);
    const dialog = screen.getByRole('region', { name: 'Your session on Lucky 7 has ended' });
    expect(figures(dialog)).toEqual(['1:02:05', '37', '₺50.00', '₺32.50', '₺-17.50']);
    expect(within(dialog).getByRole('link', { name: 'See history' })).toHaveAttribute('href', '/slot-sessions');
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('on the lobby: waits until the server closed the session the game screen left, shows it once, and is gone when closed', async () => {
    let calls = 0;
    mockFetch({
      'GET /api/player/slot-sessions': () => ({ body: { items: [calls++ === 0 ? { ...closed, end: null } : closed], next_cursor: null } }),
    });
    const router = createMemoryRouter([{ path: '/', element: <QueryRoot><SessionSummary /></QueryRoot> }], {
      initialEntries: [{ pathname: '/', state: { closedSessionId: 's-42' } }],
    });
    render(<RouterProvider router={router} />);
    const dialog = await screen.findByRole('region', { name: 'Your session on Lucky 7 has ended' }, { timeout: 4_000 });
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(figures(dialog)[1]).toBe('37');
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region')).toBeNull();
    expect(router.state.location.state).toBeNull();
  });
});
