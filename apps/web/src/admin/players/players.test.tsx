import type { AdminPlayerDetail, AdminPlayerSummary } from '@reel/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch } from '@/testing/test-utils';
import { bodyOf, renderAdmin, setupAdminTests, staffOperator } from '../testing/render-admin';
import { parseCents } from './player-actions';

beforeAll(() => setupAdminTests());

const carol: AdminPlayerSummary = {
  id: 7,
  username: 'carol',
  email: 'carol@example.com',
  name: 'Carol',
  lastname: 'Doe',
  banned: false,
  locked: true,
  blocked_until: null,
  failed_logins: 3,
  pin_set: true,
  balance: 25_000,
  created_at: '2026-11-01T10:00:00.000Z',
  last_logon: '2026-11-27T09:00:00.000Z',
  last_logon_ip: '10.0.0.7',
};

const detail: AdminPlayerDetail = {
  status: true,
  player: carol,
  wallet: { balance: 25_000, cash: 20_000, credit: 3_000, bonus: 1_500, discount: 500, currency: 'TRY' },
  sessions: [],
  transactions: [],
  logins: [{ at: '2026-11-27T09:00:00.000Z', type: 'login fail', ip: '10.0.0.7', detail: {} }],
  notes: [{ id: 1, at: '2026-11-27T09:30:00.000Z', author: 'operator:boss', text: 'called about a refund' }],
} as unknown as AdminPlayerDetail;

describe('Players', () => {
  it('searches and opens a player page with wallet parts, login log and notes', async () => {
    let asked = '';
    mockFetch({
      'GET /api/admin/players': (url) => ((asked = url.search), { body: { status: true, items: [carol], total: 1 } }),
      'GET /api/admin/players/7': () => ({ body: detail }),
    });
    renderAdmin('/admin/players');
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Username, email, name or id'), 'car');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.click(await screen.findByRole('link', { name: 'carol' }));
    expect(asked).toContain('q=car');
    expect(await screen.findByRole('heading', { name: /carol/ })).toHaveTextContent('locked');
    const wallet = screen.getByRole('heading', { name: 'Wallet' }).parentElement!;
    for (const part of ['Cash', 'Credit', 'Bonus', 'Discount']) expect(within(wallet).getByText(part)).toBeInTheDocument();
    expect(screen.getByText('login fail')).toBeInTheDocument();
    expect(screen.getByText('called about a refund')).toBeInTheDocument();
  });

  it('deposits with an amount, a reason and one idempotency key kept across a retry', async () => {
    const keys: string[] = [];
    let fail = true;
    mockFetch({
      'GET /api/admin/players/7': () => ({ body: detail }),
      'POST /api/admin/players/7/deposit': (_url, init) => {
        keys.push(new Headers(init?.headers).get('idempotency-key') ?? '');
        expect(bodyOf(init)).toEqual({ amount: 1250, reason: 'cash at the desk' });
        if (fail) return (fail = false), { status: 503, body: { status: false, code: 50300, ErrorMessage: 'x' } };
        return { body: { status: true, operation_id: 41, replayed: false, wallet: { ...detail.wallet, balance: 26_250 } } };
      },
    });
    renderAdmin('/admin/players/7');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Deposit' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Amount (TRY)'), '12,50');
    await user.type(within(dialog).getByLabelText('Reason'), 'cash at the desk');
    await user.click(within(dialog).getByRole('button', { name: 'Deposit' }));
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Deposit' }));
    expect(await screen.findByText(/operation 41/)).toBeInTheDocument();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });

  it('bans with a reason; staff are offered neither money corrections nor credentials', async () => {
    const sent: Array<[string, Record<string, unknown>]> = [];
    mockFetch({
      'GET /api/admin/players/7': () => ({ body: detail }),
      'POST /api/admin/players/7/ban': (url, init) => (sent.push([url.pathname, bodyOf(init)]), { body: { status: true, player: { ...carol, banned: true }, signed_out: 2 } }),
    });
    renderAdmin('/admin/players/7', staffOperator);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Ban' }));
    for (const name of ['Deposit', 'Withdraw', 'Set PIN', 'Reset password']) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unlock' })).toBeInTheDocument();
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Reason'), 'fraud');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Ban' }));
    expect(await screen.findByText('Done; 2 sessions signed out')).toBeInTheDocument();
    expect(sent).toEqual([['/api/admin/players/7/ban', { reason: 'fraud' }]]);
  });

  it('sets a PIN as admin, with the new PIN and a reason', async () => {
    const sent: Array<Record<string, unknown>> = [];
    mockFetch({
      'GET /api/admin/players/7': () => ({ body: detail }),
      'POST /api/admin/players/7/pin': (_url, init) => (sent.push(bodyOf(init)), { body: { status: true, player: carol, signed_out: 0 } }),
    });
    renderAdmin('/admin/players/7');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Set PIN' }));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('New PIN (4–8 digits)'), '4321');
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Reason'), 'forgot it');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Set PIN' }));
    await screen.findByText('Done; 0 sessions signed out');
    expect(sent).toEqual([{ pin: '4321', reason: 'forgot it' }]);
  });

  it('reads amounts in the main unit as integer cents', () => {
    expect(parseCents('12,50')).toBe(1250);
    expect(parseCents('0.1')).toBe(10);
    expect(parseCents('0')).toBeNull();
    expect(parseCents('1.234')).toBeNull();
    expect(parseCents('abc')).toBeNull();
  });
});
