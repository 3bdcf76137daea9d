import type { FloorMachine } from '@reel/protocol';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch } from '@/testing/test-utils';
import { bodyOf, renderAdmin, setupAdminTests } from '../testing/render-admin';
import { stubWebSocket } from '../testing/fake-socket';

beforeAll(() => setupAdminTests());

const playing: FloorMachine = {
  machineId: 1,
  name: 'Diamond Nights 1',
  brand: 'Diamond Nights',
  cabinetState: 'in_game',
  outOfService: null,
  emergencyStop: null,
  session: { id: 's-1', playerId: 7, username: 'carol', status: 'playing', startedAt: new Date(Date.now() - 65_000).toISOString(), netCents: -250 },
  creditsCents: 1250,
  handPaysWaiting: 0,
  health: { connected: true, encoderRunning: true, videoError: null, lastFrameAgeMs: 40, malfunctions: 0 },
};
const idle: FloorMachine = { ...playing, machineId: 2, name: 'Diamond Nights 2', cabinetState: 'idle', session: null, creditsCents: 0 };

function row(name: string): HTMLElement {
  return screen.getByRole('row', { name: new RegExp(name) });
}

describe('Floor', () => {
  it('shows every machine from the snapshot, then applies the staff channel’s pushes', async () => {
    mockFetch({ 'GET /api/admin/floor': () => ({ body: { machines: [playing, idle], at: new Date().toISOString() } }) });
    const Socket = stubWebSocket();
    renderAdmin('/admin/floor');
    const first = await screen.findByRole('row', { name: /Diamond Nights 1/ });
    expect(within(first).getByRole('link', { name: 'carol' })).toHaveAttribute('href', '/admin/players/7');
    expect(first).toHaveTextContent('in_game');
    // The session began 65 s before this file loaded; on a loaded machine the render comes seconds later.
    expect(first).toHaveTextContent(/0:01:(0[5-9]|[1-5]\d)/);
    expect(first).toHaveTextContent('connected');
    expect(row('Diamond Nights 2')).toHaveTextContent('idle');
    // The channel opens with the operator's token, never the player's.
    expect(Socket.instances[0]!.url).toContain('/ws/admin?token=operator-token');
    act(() => Socket.instances[0]!.push({ event: 'floor', data: { machines: [playing, idle], at: new Date().toISOString() } }));
    expect(screen.getByText('Live')).toBeInTheDocument();
    act(() =>
      Socket.instances[0]!.push({
        event: 'machine',
        data: { ...idle, emergencyStop: { reason: 'door open', at: new Date().toISOString(), by: 'operator:sam' }, health: { ...idle.health, connected: false, malfunctions: 2 } },
      }),
    );
    // The query cache tells its screens on its own schedule: wait for it.
    expect(await screen.findByText('EMERGENCY STOP')).toBeInTheDocument();
    expect(row('Diamond Nights 2')).toHaveTextContent('disconnected');
    expect(row('Diamond Nights 2')).toHaveTextContent('2 malfunctions');
    expect(within(row('Diamond Nights 2')).getByRole('button', { name: 'Release: Diamond Nights 2' })).toBeInTheDocument();
  });

  it('asks a reason for each action and sends it with the action', async () => {
    const sent: Array<[string, Record<string, unknown>]> = [];
    mockFetch({
      'GET /api/admin/floor': () => ({ body: { machines: [playing, idle], at: new Date().toISOString() } }),
      'POST /api/admin/floor/1/kick': (url, init) => (sent.push([url.pathname, bodyOf(init)]), { body: { ok: true, playerId: 7 } }),
      'PUT /api/admin/floor/2/emergency-stop': (url, init) => (sent.push([url.pathname, bodyOf(init)]), { body: { ok: true, delivered: true } }),
      'PUT /api/admin/floor/2/service': (url, init) => (sent.push([url.pathname, bodyOf(init)]), { body: { ok: true } }),
    });
    stubWebSocket();
    renderAdmin('/admin/floor');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Kick: Diamond Nights 1' }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Kick' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please give a reason for this action');
    expect(sent).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason'), 'abusive chat');
    await user.click(within(dialog).getByRole('button', { name: 'Kick' }));
    await screen.findByText('Done');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Kick and cash out need a player: the idle machine offers neither.
    expect(within(row('Diamond Nights 2')).queryByRole('button', { name: /Kick/ })).not.toBeInTheDocument();
    await user.click(within(row('Diamond Nights 2')).getByRole('button', { name: 'Emergency stop: Diamond Nights 2' }));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Reason'), 'smoke');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Emergency stop' }));
    await user.click(await within(row('Diamond Nights 2')).findByRole('button', { name: 'Out of service: Diamond Nights 2' }));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Reason'), 'repair');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Out of service' }));
    await screen.findAllByText('Done');
    expect(sent).toEqual([
      ['/api/admin/floor/1/kick', { reason: 'abusive chat' }],
      ['/api/admin/floor/2/emergency-stop', { stopped: true, reason: 'smoke' }],
      ['/api/admin/floor/2/service', { inService: false, reason: 'repair' }],
    ]);
  });

  it("shows the server's refusal in the dialog (staff cannot do what the server refuses)", async () => {
    mockFetch({
      'GET /api/admin/floor': () => ({ body: { machines: [playing], at: new Date().toISOString() } }),
      'POST /api/admin/floor/1/cash-out': () => ({ status: 409, body: { status: false, code: 40905, ErrorMessage: 'x', Params: { reason: 'door open' } } }),
    });
    stubWebSocket();
    renderAdmin('/admin/floor');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Cash out: Diamond Nights 1' }));
    await user.type(screen.getByLabelText('Reason'), 'player asked');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cash out' }));
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent('Staff stopped this machine: door open.');
  });
});
