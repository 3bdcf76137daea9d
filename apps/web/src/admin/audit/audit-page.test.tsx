import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch } from '@/testing/test-utils';
import { renderAdmin, setupAdminTests } from '../testing/render-admin';

beforeAll(() => setupAdminTests());

const row = {
  seq: 12,
  at: '2026-11-27T09:00:00.000Z',
  actor: 'operator:boss',
  action: 'player.ban',
  target: 'player:7',
  before: { banned: false },
  after: { banned: true },
  reason: 'fraud',
  prev_hash: '0'.repeat(64),
  hash: 'a'.repeat(64),
};

describe('Audit trail', () => {
  it('lists rows with their reason and change, filters by actor and action, and shows the verify result', async () => {
    const searches: URLSearchParams[] = [];
    let intact = true;
    mockFetch({
      'GET /api/admin/audit': (url) => (searches.push(url.searchParams), { body: { status: true, items: [row], total: 1 } }),
      'GET /api/admin/audit/verify': () => ({
        body: intact
          ? { status: true, ok: true, rows: 12, head_seq: 12, signed_seq: 10, first_bad_seq: null, problem: null }
          : { status: true, ok: false, rows: 12, head_seq: 12, signed_seq: 10, first_bad_seq: 5, problem: 'hash mismatch' },
      }),
    });
    renderAdmin('/admin/audit');
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('fraud')).toBeInTheDocument();
    expect(screen.getByText('{"banned":false} → {"banned":true}')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Actor'), 'operator:boss');
    await user.type(screen.getByLabelText('Action'), 'player.');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await screen.findByText('fraud');
    const last = searches.at(-1)!;
    expect(last.get('actor')).toBe('operator:boss');
    expect(last.get('action')).toBe('player.');
    expect(last.get('offset')).toBe('0');
    await user.click(screen.getByRole('button', { name: 'Verify the chain' }));
    expect(await screen.findByText('The chain is intact: 12 rows, head 12, signed up to 10')).toBeInTheDocument();
    intact = false;
    await user.click(screen.getByRole('button', { name: 'Verify the chain' }));
    expect(await screen.findByText('The chain is broken at seq 5: hash mismatch')).toBeInTheDocument();
  });
});
