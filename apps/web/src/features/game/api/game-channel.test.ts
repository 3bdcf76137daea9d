import { Code, SessionAction } from '@reel/protocol/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Environment, SocketLike } from './channel-environment';
import {
  GameChannelStatus,
  LONG_OUTAGE_MS,
  RECONNECT_INITIAL_DELAY_MS,
  RECONNECT_MAX_DELAY_MS,
  STREAM_REQUEST_TIMEOUT_MS,
  reconnectDelayMs,
} from './channel-status';
import { setRuntimeSettingsForTest } from '@/config/runtime-settings';
import { GameChannel, type JoinedData } from './game-channel';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: { event: string; data: Record<string, unknown> }[] = [];
  closedWith: number | undefined;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code = 1000) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.closedWith = code;
    this.onclose?.({ code } as CloseEvent);
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(event: string, data: unknown) {
    this.onmessage?.({ data: JSON.stringify({ event, data, seq: 1 }) } as MessageEvent);
  }
  /** The network or the server drops the connection. */
  drop(code = 1006) {
    this.close(code);
  }
  events() {
    return this.sent.map((message) => message.event);
  }
}

function fakeEnvironment() {
  let online = true;
  let handlers: { online(): void; offline(): void; visible(): void } | null = null;
  const env: Environment = {
    isOnline: () => online,
    isVisible: () => true,
    subscribe(next) {
      handlers = next;
      return () => (handlers = null);
    },
  };
  return {
    env,
    goOffline() {
      online = false;
      handlers?.offline();
    },
    goOnline() {
      online = true;
      handlers?.online();
    },
    becomeVisible() {
      handlers?.visible();
    },
  };
}

const joined = (over: Partial<JoinedData> = {}): JoinedData => ({
  machineId: 3,
  name: 'Lucky 3',
  videoType: 'screen',
  bands: [],
  activeBand: 'high',
  stream: { grant: 'g1', expiresAt: '', whepUrl: '/api/media/whep/3', iceServers: [] },
  betLevels: [20, 40, 100],
  machine: { machineId: 3, cabinetState: 'idle', creditsCents: 0, betCents: 20, betLevel: 0, autoplay: false, freeSpinsLeft: 0, videoType: 'screen' },
  session: { sessionId: 's1', machineId: 3, spins: 0, freeSpins: 0, cashInCents: 0, cashOutCents: 0, netCents: 0, startedAt: new Date(0).toISOString() },
  resumed: false,
  ...over,
});

function setup() {
  const sockets: FakeSocket[] = [];
  const network = fakeEnvironment();
  let now = 0;
  let id = 0;
  const channel = new GameChannel({
    machineId: 3,
    getToken: () => 'token-1',
    url: (token) => `ws://test/ws/game?token=${token}`,
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    environment: network.env,
    random: () => 0.5,
    now: () => now,
    newId: () => `id-${++id}`,
  });
  const statuses: string[] = [];
  channel.on('status', (status) => statuses.push(status));
  const last = () => sockets[sockets.length - 1]!;
  const advance = (ms: number) => {
    now += ms;
    vi.advanceTimersByTime(ms);
  };
  return { channel, sockets, last, network, statuses, advance };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('GameChannel', () => {
  it('sends init first and is joined when the server answers', () => {
    const { channel, last } = setup();
    const onJoined = vi.fn();
    channel.on('joined', onJoined);
    channel.start();
    expect(channel.getStatus()).toBe(GameChannelStatus.Connecting);
    last().open();
    expect(last().sent[0]).toEqual({ event: 'init', data: { machineID: 3, token: 'token-1', protocol: 1 } });
    last().receive('joined', joined());
    expect(channel.getStatus()).toBe(GameChannelStatus.Joined);
    expect(onJoined).toHaveBeenCalledWith(expect.objectContaining({ name: 'Lucky 3' }));
  });

  it('reconnects with growing, capped backoff and sends init again on every new socket', () => {
    const { channel, sockets, last, advance } = setup();
    channel.start();
    last().open();
    last().receive('joined', joined());
    last().drop();
    expect(channel.getStatus()).toBe(GameChannelStatus.Reconnecting);

    // attempt 0: the initial delay (random 0.5 → no jitter)
    advance(RECONNECT_INITIAL_DELAY_MS - 1);
    expect(sockets).toHaveLength(1);
    advance(1);
    expect(sockets).toHaveLength(2);
    // attempt 1 fails before opening: twice the delay
    last().drop();
    advance(RECONNECT_INITIAL_DELAY_MS * 2);
    expect(sockets).toHaveLength(3);
    last().open();
    expect(last().events()).toEqual(['init']);
    last().receive('joined', joined({ resumed: true }));
    expect(channel.getStatus()).toBe(GameChannelStatus.Joined);

    // a successful join resets the backoff
    last().drop();
    advance(RECONNECT_INITIAL_DELAY_MS);
    expect(sockets).toHaveLength(4);
  });

  it('caps the delay and spreads it with jitter', () => {
    expect(reconnectDelayMs(0, () => 0.5)).toBe(RECONNECT_INITIAL_DELAY_MS);
    expect(reconnectDelayMs(30, () => 0.5)).toBe(RECONNECT_MAX_DELAY_MS);
    expect(reconnectDelayMs(30, () => 0)).toBe(RECONNECT_MAX_DELAY_MS * 0.75);
    expect(reconnectDelayMs(30, () => 1)).toBe(RECONNECT_MAX_DELAY_MS * 1.25);
  });

  it('a fatal join error fails the channel without retrying', () => {
    const { channel, sockets, last, advance } = setup();
    const fatal = vi.fn();
    channel.on('fatal', fatal);
    channel.start();
    last().open();
    last().receive('error', { code: Code.MachineBusy, ErrorMessage: 'busy', fatal: true });
    last().drop(4002);
    advance(60_000);
    expect(fatal).toHaveBeenCalledWith(expect.objectContaining({ code: Code.MachineBusy }));
    expect(channel.getStatus()).toBe(GameChannelStatus.Failed);
    expect(sockets).toHaveLength(1);
  });

  it('passes play errors on and stays joined', () => {
    const { channel, last } = setup();
    const onError = vi.fn();
    channel.on('error', onError);
    channel.start();
    last().open();
    last().receive('joined', joined());
    last().receive('error', { code: Code.InsufficientBalance, ErrorMessage: 'Insufficient balance', fatal: false });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: Code.InsufficientBalance }));
    expect(channel.getStatus()).toBe(GameChannelStatus.Joined);
  });

  it('QUIT_REQUEST ends the channel: no reconnect after the server closes with 4000', () => {
    const { channel, sockets, last, advance } = setup();
    const onInfo = vi.fn();
    channel.on('info', onInfo);
    channel.start();
    last().open();
    last().receive('joined', joined());
    last().receive('info', { code: Code.SessionTerminated, params: {}, message: '', action: SessionAction.QuitRequest });
    advance(60_000);
    expect(onInfo).toHaveBeenCalled();
    expect(channel.getStatus()).toBe(GameChannelStatus.Closed);
    expect(sockets).toHaveLength(1);
  });

  it('a short offline spell reconnects by itself when the browser is back online', () => {
    const { channel, sockets, last, network, advance } = setup();
    channel.start();
    last().open();
    last().receive('joined', joined());
    network.goOffline();
    expect(channel.getStatus()).toBe(GameChannelStatus.Offline);
    expect(sockets[0]!.readyState).toBe(3);
    advance(LONG_OUTAGE_MS - 1000);
    expect(sockets).toHaveLength(1);
    network.goOnline();
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().events()).toEqual(['init']);
  });

  it('after a long outage it waits for resume(), which joins again', () => {
    const { channel, sockets, last, network, advance } = setup();
    const interrupted = vi.fn();
    channel.on('interrupted', interrupted);
    channel.start();
    last().open();
    last().receive('joined', joined());
    network.goOffline();
    advance(LONG_OUTAGE_MS + 10);
    network.goOnline();
    expect(channel.getStatus()).toBe(GameChannelStatus.Interrupted);
    expect(interrupted).toHaveBeenCalledWith(LONG_OUTAGE_MS + 10);
    expect(sockets).toHaveLength(1);
    channel.resume();
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().events()).toEqual(['init']);
  });

  it('reconnects at once when the tab becomes visible again', () => {
    const { channel, sockets, last, network } = setup();
    channel.start();
    last().open();
    last().receive('joined', joined());
    last().drop();
    expect(sockets).toHaveLength(1);
    network.becomeVisible();
    expect(sockets).toHaveLength(2);
  });

  it('asks for a fresh grant with stream {} every time, and takes the grant of a re-join too', async () => {
    const { channel, last, advance } = setup();
    channel.start();
    last().open();
    last().receive('joined', joined());
    const first = channel.requestStream();
    expect(last().events()).toEqual(['init', 'stream']);
    // An error answer is shown like any other; the request is still waited on, then joined again.
    last().receive('error', { code: Code.InvalidRequest, ErrorMessage: 'no session', fatal: false });
    expect(last().events()).toEqual(['init', 'stream']);
    advance(STREAM_REQUEST_TIMEOUT_MS);
    expect(last().events()).toEqual(['init', 'stream', 'init']);
    last().receive('joined', joined({ stream: { grant: 'g2', expiresAt: '', whepUrl: '/w', iceServers: [] }, resumed: true }));
    await expect(first).resolves.toMatchObject({ grant: 'g2' });
    void channel.requestStream();
    expect(last().events()).toEqual(['init', 'stream', 'init', 'stream']);
  });

  it('uses the stream answer when the server has one, and re-joins when it stays silent', async () => {
    const { channel, last, advance } = setup();
    channel.start();
    last().open();
    last().receive('joined', joined());
    const answered = channel.requestStream();
    last().receive('stream', { grant: 'g3', expiresAt: '', whepUrl: '/w', iceServers: [] });
    await expect(answered).resolves.toMatchObject({ grant: 'g3' });
    void channel.requestStream();
    advance(STREAM_REQUEST_TIMEOUT_MS);
    expect(last().events()).toEqual(['init', 'stream', 'stream', 'init']);
  });

  it('sends commands with fresh ids and cash-ins with fresh idempotency keys', () => {
    const { channel, last } = setup();
    channel.start();
    last().open();
    last().receive('joined', joined());
    channel.spin();
    channel.cashIn(5000);
    channel.cashIn(5000);
    channel.setBetLevel(2);
    channel.setAutoplay(true);
    channel.setVideoType('camera');
    expect(last().sent.slice(1)).toEqual([
      { event: 'spin', data: { commandId: 'id-1' } },
      { event: 'cashin', data: { amountCents: 5000, idempotencyKey: 'id-2' } },
      { event: 'cashin', data: { amountCents: 5000, idempotencyKey: 'id-3' } },
      { event: 'bet', data: { commandId: 'id-4', level: 2 } },
      { event: 'autoplay', data: { commandId: 'id-5', on: true } },
      { event: 'view', data: { videoType: 'camera' } },
    ]);
  });

  it('leave sends leave, waits for closed and then shuts the socket', async () => {
    const { channel, last } = setup();
    channel.start();
    const socket = last();
    socket.open();
    socket.receive('joined', joined());
    const done = channel.leave();
    expect(socket.events()).toEqual(['init', 'leave']);
    socket.receive('closed', { reason: 'closed', code: Code.Success });
    await done;
    expect(socket.readyState).toBe(3);
    expect(channel.getStatus()).toBe(GameChannelStatus.Closed);
  });
});

describe('GameChannel address', () => {
  afterEach(() => setRuntimeSettingsForTest({}));

  /** The URL the channel opens its socket on while API_URL is `apiUrl`. */
  function socketUrlWith(apiUrl: string, token: string): string {
    setRuntimeSettingsForTest({ API_URL: apiUrl });
    const urls: string[] = [];
    const channel = new GameChannel({
      machineId: 3,
      getToken: () => token,
      createSocket: (url) => {
        urls.push(url);
        return new FakeSocket(url);
      },
      environment: fakeEnvironment().env,
    });
    channel.start();
    channel.dispose();
    return urls[0]!;
  }

  it('opens the game socket on the host API_URL names, not on the page host, naming the machine for the cluster\'s HAProxy', () => {
    expect(socketUrlWith('https://api.example.com/api/', 'token 1')).toBe('wss://api.example.com/ws/game?token=token%201&machineId=3');
  });

  it('stays on the page host while API_URL is a path', () => {
    expect(socketUrlWith('/api/', 't')).toBe(`ws://${window.location.host}/ws/game?token=t&machineId=3`);
  });
});
