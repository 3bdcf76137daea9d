import type { HandPayView } from '@reel/protocol';
import { Code } from '@reel/protocol/client';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch } from '@/testing/test-utils';
import { bodyOf, renderAdmin, setupAdminTests, staffOperator } from '../testing/render-admin';
import { stubWebSocket } from '../testing/fake-socket';

beforeAll(() => setupAdminTests());

const big: HandPayView = {
  id: 5,
  machineId: 1,
  machineName: 'Diamond Nights 1',
  playerId: 7,
  username: 'carol',
  amountCents: 1_500_000,
  status: 'waiting',
  needsSecond: true,
  requestedAt: '2026-11-27T09:00:00.000Z',
  firstSigner: null,
  secondSigner: null,
  paidAt: null,
};

describe('Hand pays', () => {
  it('approves with a reason: the first signature waits for a second, different staff member, whose own second try is refused', async () => {
    let queue: HandPayView[] = [big];
    const approvals: unknown[] = [];
    mockFetch({
      'GET /api/admin/floor': () => ({ body: { machines: [], at: new Date().toISOString() } }),
      'GET /api/admin/hand-pays': (url) => (expect(url.searchParams.get('status')).toBe('waiting'), { body: queue }),
      'POST /api/admin/hand-pays/5/approve': (_url, init) => {
        approvals.push(bodyOf(init));
        if (approvals.length === 2) return { status: 403, body: { status: false, code: Code.SecondSignerSame, ErrorMessage: 'x' } };
        queue = [{ ...big, firstSigner: 'operator:sam' }];
        return { body: { paid: false, handPay: queue[0] } };
      },
    });
    stubWebSocket();
    renderAdmin('/admin/hand-pays', staffOperator);
    const user = userEvent.setup({ delay: null });
    const row = await screen.findByRole('row', { name: /Diamond Nights 1/ });
    expect(row).toHaveTextContent('carol');
    expect(row).toHaveTextContent('a second, different staff member must also approve');
    await user.click(within(row).getByRole('button', { name: 'Approve: Diamond Nights 1' }));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Reason'), 'checked the video');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Your signature is recorded; a second, different staff member must approve')).toBeInTheDocument();
    expect(await screen.findByText('operator:sam')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve: Diamond Nights 1' }));
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Reason'), 'again');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent('A second, different staff member must approve this hand pay');
    expect(approvals).toEqual([{ reason: 'checked the video' }, { reason: 'again' }]);
  });

  it('asks the queue again when the floor pushes a new waiting hand pay', async () => {
    let asked = 0;
    mockFetch({
      'GET /api/admin/floor': () => ({ body: { machines: [], at: new Date().toISOString() } }),
      'GET /api/admin/hand-pays': () => (asked++, { body: asked > 1 ? [big] : [] }),
    });
    const Socket = stubWebSocket();
    renderAdmin('/admin/hand-pays');
    expect(await screen.findByText('No hand pay is waiting')).toBeInTheDocument();
    const machine = {
      machineId: 1,
      name: 'Diamond Nights 1',
      brand: 'Diamond Nights',
      cabinetState: 'in_game',
      outOfService: null,
      emergencyStop: null,
      session: null,
      creditsCents: 0,
      handPaysWaiting: 1,
      health: { connected: true, encoderRunning: true, videoError: null, lastFrameAgeMs: null, malfunctions: 0 },
    };
    Socket.instances.at(-1)!.push({ event: 'machine', data: machine });
    expect(await screen.findByRole('row', { name: /Diamond Nights 1/ })).toHaveTextContent('carol');
  });
});
