import type { AdminPlayerDetail, AdminPlayerProtection, AdminPlayerSummary } from '@reel/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch } from '@/testing/test-utils';
import { bodyOf, renderAdmin, setupAdminTests, staffOperator } from '../testing/render-admin';

beforeAll(() => setupAdminTests());

const dave = {
  id: 9,
  username: 'dave',
  name: 'Dave',
  lastname: 'Roe',
  email: 'dave@example.com',
  banned: false,
  locked: false,
  failed_logins: 0,
  pin_set: false,
} as AdminPlayerSummary;
const detail = {
  status: true,
  player: dave,
  wallet: { balance: 0, cash: 0, credit: 0, bonus: 0, discount: 0, currency: 'TRY' },
  sessions: [],
  transactions: [],
  logins: [],
  notes: [],
} as unknown as AdminPlayerDetail;

const selfExclusion = {
  id: 3,
  kind: 'self_exclusion',
  period: 'self_exclusion_6m',
  startsAt: '2026-11-01T10:00:00.000Z',
  endsAt: '2027-05-01T10:00:00.000Z',
  active: true,
  endedEarlyAt: null,
  endedBy: null,
  endReason: null,
} as const;
const coolOff = {
  ...selfExclusion,
  id: 1,
  kind: 'cool_off',
  period: 'cool_off_24h',
  startsAt: '2026-10-01T10:00:00.000Z',
  endsAt: '2026-10-02T10:00:00.000Z',
  active: false,
} as const;

const protection: AdminPlayerProtection = {
  status: true,
  code: 20000,
  limits: [
    {
      key: 'deposit_day',
      value: 5_000,
      used: 1_250,
      resetsAt: '2026-11-28T00:00:00.000Z',
      pending: {
        value: 9_000,
        requestedAt: '2026-11-27T09:00:00.000Z',
        confirmableAt: '2026-11-28T09:00:00.000Z',
      },
    },
    { key: 'loss_week', value: null, used: 300, resetsAt: '2026-11-30T00:00:00.000Z', pending: null },
    { key: 'session_minutes', value: 90, used: 12, resetsAt: null, pending: null },
  ],
  breaks: [selfExclusion, coolOff],
};

const rowOf = (table: HTMLElement, label: string) => within(table).getByText(label).closest('tr')!;

describe("The player page's protection section", () => {
  it('shows each limit as it applies now and every break; an admin ends the self-exclusion with a reason', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const ended = {
      ...selfExclusion,
      active: false,
      endedEarlyAt: '2026-11-27T12:00:00.000Z',
      endedBy: 'boss',
      endReason: 'court order 17',
    };
    mockFetch({
      'GET /api/admin/players/9': () => ({ body: detail }),
      'GET /api/admin/players/9/protection': () => ({ body: protection }),
      'POST /api/admin/players/9/end-self-exclusion': (_url, init) => (
        sent.push(bodyOf(init)),
        { body: { ...protection, breaks: [ended, coolOff] } }
      ),
    });
    renderAdmin('/admin/players/9');
    const section = (await screen.findByRole('heading', { name: 'Protection' })).closest('section')!;
    const limits = await within(section).findByRole('table', { name: 'Limits' });
    expect(rowOf(limits, 'Deposit per day')).toHaveTextContent(
      /50[.,]00.*12[.,]50.*90[.,]00, confirmable from/,
    );
    expect(rowOf(limits, 'Loss per week')).toHaveTextContent('none');
    expect(rowOf(limits, 'Session time')).toHaveTextContent(/90 min.*12 min/);
    const breaks = within(section).getByRole('table', { name: 'Breaks' });
    expect(rowOf(breaks, 'Self-exclusion')).toHaveTextContent('in force');
    expect(rowOf(breaks, 'Cool-off')).toHaveTextContent('over');

    const user = userEvent.setup({ delay: null });
    await user.click(within(section).getByRole('button', { name: 'End self-exclusion' }));
    const dialog = screen.getByRole('dialog', { name: 'End self-exclusion: dave' });
    await user.click(within(dialog).getByRole('button', { name: 'End self-exclusion' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please give a reason for this action');
    expect(sent).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason'), 'court order 17');
    await user.click(within(dialog).getByRole('button', { name: 'End self-exclusion' }));
    expect(await screen.findByText('Self-exclusion ended; the player can sign in again')).toBeInTheDocument();
    expect(sent).toEqual([{ reason: 'court order 17' }]);
    expect(rowOf(within(section).getByRole('table', { name: 'Breaks' }), 'Self-exclusion')).toHaveTextContent(
      /ended early .* by boss: court order 17/,
    );
    expect(within(section).queryByRole('button', { name: 'End self-exclusion' })).not.toBeInTheDocument();
  });

  it('staff see the limits and breaks but are not offered the early end', async () => {
    mockFetch({
      'GET /api/admin/players/9': () => ({ body: detail }),
      'GET /api/admin/players/9/protection': () => ({ body: protection }),
    });
    renderAdmin('/admin/players/9', staffOperator);
    const section = (await screen.findByRole('heading', { name: 'Protection' })).closest('section')!;
    expect(
      rowOf(await within(section).findByRole('table', { name: 'Breaks' }), 'Self-exclusion'),
    ).toHaveTextContent('in force');
    expect(within(section).queryByRole('button', { name: 'End self-exclusion' })).not.toBeInTheDocument();
  });
});
