import type { FloorMachine } from '@reel/protocol';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '@/testing/test-utils';
import { renderAdmin, setupAdminTests } from '../testing/render-admin';
import { stubWebSocket } from '../testing/fake-socket';

/** jsdom has no WebRTC: a stand-in connection that asks its grant and reports a status. */
const connections = vi.hoisted(() => [] as Array<{ grant: unknown; closed: boolean }>);
vi.mock('@/lib/video', () => ({
  VideoStatus: { Idle: 'idle', Connected: 'connected' },
  VideoConnection: class {
    private listener: (status: string) => void = () => {};
    private readonly record = { grant: null as unknown, closed: false };
    constructor(private readonly options: { grant: () => Promise<unknown> }) {
      connections.push(this.record);
    }
    on(_event: string, listener: (status: string) => void) {
      this.listener = listener;
    }
    async connect() {
      this.record.grant = await this.options.grant();
      this.listener('connected');
    }
    close() {
      this.record.closed = true;
    }
  },
}));

beforeAll(() => setupAdminTests());

const machine: FloorMachine = {
  machineId: 3,
  name: 'Lucky Sevens 1',
  brand: 'Lucky Sevens',
  cabinetState: 'idle',
  outOfService: null,
  emergencyStop: null,
  session: null,
  creditsCents: 0,
  handPaysWaiting: 0,
  health: { connected: true, encoderRunning: true, videoError: null, lastFrameAgeMs: 35, malfunctions: 0 },
};

describe('Live video of a machine', () => {
  it('opens on a staff grant for that machine and closes the connection with the dialog', async () => {
    const grant = { grant: 'g', expiresAt: '2026-11-27T10:00:00.000Z', whepUrl: '/api/media/whep/3', iceServers: [] };
    mockFetch({
      'GET /api/admin/floor': () => ({ body: { machines: [machine], at: new Date().toISOString() } }),
      'POST /api/admin/floor/3/video': () => ({ body: grant }),
    });
    stubWebSocket();
    renderAdmin('/admin/floor');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Live video: Lucky Sevens 1' }));
    expect(screen.getByRole('dialog', { name: 'Live video of Lucky Sevens 1' })).toBeInTheDocument();
    expect(await screen.findByText('Video: live')).toBeInTheDocument();
    expect(connections.at(-1)!.grant).toEqual(grant);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(connections.at(-1)!.closed).toBe(true);
  });
});
