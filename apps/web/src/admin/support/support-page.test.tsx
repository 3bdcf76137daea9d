import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '@/testing/test-utils';
import { bodyOf, renderAdmin, setupAdminTests } from '../testing/render-admin';
import { stubWebSocket } from '../testing/fake-socket';

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
    stubWebSocket();
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

  it('shows pushed lines at once, asks nothing on a timer, and asks again only when the channel reconnects', async () => {
    const carol = { playerId: 7, username: 'carol', lastMessage: 'hello', lastMessageTime: '2026-11-27T09:00:00.000Z', waiting: true };
    const asked = { list: 0, thread: 0 };
    mockFetch({
      'GET /api/admin/chat/conversations': () => (asked.list++, { body: [carol] }),
      'GET /api/admin/chat/conversations/7': () => (asked.thread++, { body: [{ from: 'player', staffName: null, message: 'hello', time: carol.lastMessageTime }] }),
    });
    const Socket = stubWebSocket();
    renderAdmin('/admin/support');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: /carol/ }));
    const open = await screen.findByRole('region', { name: 'carol' });
    await within(open).findByText('hello');
    const socket = Socket.instances[0]!;
    expect(socket.url).toContain('/ws/admin?token=operator-token');
    // A new player, and a new line in carol's thread: both shown from the push alone.
    const dave = { playerId: 8, username: 'dave', lastMessage: 'is anyone there?', lastMessageTime: '2026-11-27T09:02:00.000Z', waiting: true };
    act(() => socket.push({ event: 'chat', data: { conversation: dave, message: { from: 'player', staffName: null, message: dave.lastMessage, time: dave.lastMessageTime } } }));
    const line = { from: 'player', staffName: null, message: 'my credits are gone', time: '2026-11-27T09:03:00.000Z' };
    act(() => socket.push({ event: 'chat', data: { conversation: { ...carol, lastMessage: line.message, lastMessageTime: line.time }, message: line } }));
    act(() => socket.push({ event: 'chat', data: { conversation: { ...carol, lastMessage: line.message, lastMessageTime: line.time }, message: line } }));
    expect(await within(open).findByText('my credits are gone')).toBeInTheDocument();
    expect(within(open).getAllByText('my credits are gone')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: /dave/ })).toBeInTheDocument();
    const [first] = screen.getAllByRole('button', { name: /carol|dave/ });
    expect(first).toHaveTextContent('carol');
    expect(asked).toEqual({ list: 1, thread: 1 });
    // The channel (re)attaches: its snapshot comes first, then the chat is asked again once.
    act(() => socket.push({ event: 'floor', data: { machines: [], at: new Date().toISOString() } }));
    await vi.waitFor(() => expect(asked).toEqual({ list: 2, thread: 2 }));
  });
});
