import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch } from '@/testing/test-utils';
import { bodyOf, renderAdmin, setupAdminTests } from '../testing/render-admin';

beforeAll(() => setupAdminTests());

describe('Support chat', () => {
  it('lists conversations, opens a thread, replies, and sets my status', async () => {
    const thread: Array<{ from: string; staffName: string | null; message: string; time: string }> = [
      { from: 'player', staffName: null, message: 'my spin froze', time: '2026-11-27T09:00:00.000Z' },
    ];
    const sent: unknown[] = [];
    mockFetch({
      'GET /api/admin/chat/conversations': () => ({
        body: [{ playerId: 7, username: 'carol', lastMessage: thread.at(-1)!.message, lastMessageTime: thread.at(-1)!.time, waiting: thread.at(-1)!.from === 'player' }],
      }),
      'GET /api/admin/chat/conversations/7': () => ({ body: thread }),
      'POST /api/admin/chat/conversations/7/reply': (_url, init) => {
        const message = { from: 'staff', staffName: 'boss', message: String(bodyOf(init).message), time: '2026-11-27T09:01:00.000Z' };
        thread.push(message);
        return { body: message };
      },
      'PUT /api/admin/chat/status': (_url, init) => (sent.push(bodyOf(init)), { body: { status: 'online', deskStatus: 'online' } }),
    });
    renderAdmin('/admin/support');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: /carol/ }));
    expect(screen.getByText('waiting')).toBeInTheDocument();
    const open = await screen.findByRole('region', { name: 'carol' });
    expect(within(open).getByText('my spin froze')).toBeInTheDocument();
    await user.type(within(open).getByLabelText('Reply'), 'Refunded, sorry!');
    await user.click(within(open).getByRole('button', { name: 'Send' }));
    expect(await within(open).findByText('Refunded, sorry!')).toBeInTheDocument();
    expect(within(open).getByLabelText('Reply')).toHaveValue('');
    await user.selectOptions(screen.getByLabelText('My status'), 'online');
    expect(await screen.findByText('The desk shows players: Online')).toBeInTheDocument();
    expect(sent).toEqual([{ status: 'online' }]);
  });
});
