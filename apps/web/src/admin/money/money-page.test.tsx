import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch } from '@/testing/test-utils';
import { renderAdmin, setupAdminTests } from '../testing/render-admin';

beforeAll(() => setupAdminTests());

const audit = { status: true, ok: false, total: 0, unbalanced: 0, drifted: 1, negative: 0, malfunctions: 2, players: [] };

describe('Money', () => {
  it('shows ledger accounts, transfers and jackpot pools, and runs the ledger audit on demand', async () => {
    let kind = '';
    let audits = 0;
    mockFetch({
      'GET /api/admin/ledger/accounts': (url) => (
        (kind = url.searchParams.get('kind') ?? ''),
        { body: { status: true, total: 1, items: [{ id: 3, kind: 'wallet', part: 'cash', player_id: 7, username: 'carol', machine_id: null, balance: 1000 }] } }
      ),
      'GET /api/admin/ledger/transfers': () => ({
        body: {
          status: true,
          total: 1,
          items: [{ id: 9, at: '2026-11-27T09:00:00.000Z', kind: 'deposit', action_code: null, player_id: 7, machine_id: null, session_id: null, amount: 1000, tag: null, idempotency_key: 'key-9', entries: [{ account_id: 1, amount: -1000 }, { account_id: 3, amount: 1000 }] }],
        },
      }),
      'GET /api/admin/jackpots': () => ({ body: { status: true, items: [{ brand_id: 1, brand: 'Diamond Nights', level: 1, seed: 100_000, amount: 123_456 }] } }),
      'GET /api/admin/ledger/audit': () => (audits++, { body: audit }),
    });
    renderAdmin('/admin/money');
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('carol')).toBeInTheDocument();
    expect(await screen.findByText('key-9')).toBeInTheDocument();
    expect(await screen.findByText('Diamond Nights')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Kind'), 'wallet');
    await screen.findByText('carol');
    expect(kind).toBe('wallet');
    expect(audits).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Run the audit' }));
    const result = await screen.findByText('The ledger audit found problems');
    expect(within(result.closest('[role="status"]') as HTMLElement).getByText(/drifted 1; negative 0; malfunctions 2/)).toBeInTheDocument();
    expect(audits).toBe(1);
  });
});
