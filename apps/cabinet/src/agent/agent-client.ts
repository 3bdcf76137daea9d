/**
 * The cabinet's side of the agent channel: one WebSocket per process, every machine authenticated
 * with its own key, reports (state, cycles, meters, command results) sent as they happen, commands
 * executed at most once.
 *
 * Game cycles are delivered at least once, and the server stores each once: a finished game stays
 * in the machine's critical memory (its outbox) until the server's `cycle_ack`, and the whole
 * outbox is sent again, in play order, after every authentication and whenever the oldest game's
 * acknowledgement is overdue. So neither a kill of this process nor of the server (nor a database
 * that failed an insert) loses a game. Command results queue up in this process while disconnected.
 * Every server message is checked against its schema (agent-schemas.ts) before it is acted on; one
 * that does not match is logged and dropped.
 */
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import {
  AGENT_PROTOCOL_VERSION,
  readAgentServerMessage,
  type AgentClientMessage,
  type AgentCommand,
  type AgentServerMessage,
  type CommandResult,
  type GameCycle,
  type MachineProfile,
  type QualityBand,
  type VideoType,
} from '@reel/protocol';
import { Backoff } from '@reel/process';
import type { SlotMachine } from '../game/machine.js';
import type { MachineStream } from '../media/machine-stream.js';

export interface AgentMachine {
  machine: SlotMachine;
  key: string;
  stream: MachineStream | null;
  videoType: VideoType;
  bands: readonly QualityBand[];
  /** No rendering or encoding (`--no-video`): the server is told, so nobody waits for its video. */
  headless?: boolean;
}

const AgentStatus = {
  Connecting: 'connecting',
  Open: 'open',
  Closed: 'closed',
  Stopped: 'stopped',
} as const;
type AgentStatus = (typeof AgentStatus)[keyof typeof AgentStatus];

interface AgentClientOptions {
  url: string;
  agentId: string;
  machines: AgentMachine[];
  log?: (msg: string) => void;
  /** A game not acknowledged this long after it was sent is sent again, with every later one. */
  cycleAckTimeoutMs?: number;
}

const OUTBOX_LIMIT = 2000;
const HEARTBEAT_MS = 10_000;
const CYCLE_ACK_TIMEOUT_MS = 10_000;

interface Slot {
  entry: AgentMachine;
  authed: boolean;
  /** Command results waiting for the connection (cycles wait in the machine's memory). */
  outbox: AgentClientMessage[];
  /** When each unacknowledged game was last sent on the current connection. */
  cycleSentAtMs: Map<string, number>;
}

export class AgentClient extends EventEmitter<{
  status: [AgentStatus];
  auth: [number, boolean, string | undefined];
  /** The server's profile of an authenticated machine (its brand, the frame rate). */
  profile: [number, MachineProfile];
}> {
  private ws: WebSocket | null = null;
  /** Reconnects: ±20 % jitter, so that cabinets do not stampede a restarted server. */
  private readonly reconnects = new Backoff({ initialMs: 250, maxMs: 5000, jitter: 0.2 });
  private retryTimer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private resendTimer: NodeJS.Timeout | null = null;
  private readonly slots = new Map<number, Slot>();
  status: AgentStatus = AgentStatus.Closed;

  constructor(private readonly opts: AgentClientOptions) {
    super();
    for (const entry of opts.machines) {
      const slot: Slot = { entry, authed: false, outbox: [], cycleSentAtMs: new Map() };
      this.slots.set(entry.machine.machineId, slot);
      const id = entry.machine.machineId;
      entry.machine.on('state', (s) =>
        this.sendLive(slot, {
          event: 'state',
          data: {
            machineId: id,
            state: s.state,
            previous: s.previous,
            atMs: Date.now(),
            ...(s.reason ? { reason: s.reason } : {}),
            ...(s.videoError !== undefined ? { videoError: s.videoError } : {}),
            ...(s.emergencyStop !== undefined ? { emergencyStop: s.emergencyStop } : {}),
          },
        }),
      );
      entry.machine.on('meters', (m) =>
        this.sendLive(slot, { event: 'meters', data: { machineId: id, meters: m } }),
      );
      // Already in the machine's outbox: sent now if connected, else after the next authentication.
      entry.machine.on('cycle', (c) => this.sendCycle(slot, c));
    }
  }

  start(): void {
    if (this.status === AgentStatus.Stopped) return;
    this.connect();
  }

  async stop(): Promise<void> {
    this.setStatus(AgentStatus.Stopped);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.resendTimer) clearInterval(this.resendTimer);
    for (const slot of this.slots.values()) {
      if (slot.authed) {
        slot.entry.machine.setOffline(true);
      }
    }
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState === WebSocket.OPEN) {
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.close(1000, 'agent stopping');
        setTimeout(resolve, 500);
      });
    } else ws?.terminate();
  }

  isAuthed(machineId: number): boolean {
    return this.slots.get(machineId)?.authed ?? false;
  }

  private setStatus(s: AgentStatus): void {
    if (this.status === AgentStatus.Stopped && s !== AgentStatus.Stopped) return;
    this.status = s;
    this.emit('status', s);
  }

  private connect(): void {
    this.setStatus(AgentStatus.Connecting);
    const ws = new WebSocket(this.opts.url, { perMessageDeflate: false, handshakeTimeout: 5000 });
    this.ws = ws;
    ws.on('open', () => {
      this.reconnects.reset();
      this.setStatus(AgentStatus.Open);
      this.raw(ws, {
        event: 'hello',
        data: { protocol: AGENT_PROTOCOL_VERSION, agentId: this.opts.agentId, software: 'reel-cabinet/0.1' },
      });
      for (const slot of this.slots.values()) {
        const { machine, key, videoType, bands, headless } = slot.entry;
        this.raw(ws, {
          event: 'auth',
          data: {
            machineId: machine.machineId,
            key,
            videoType,
            bands: [...bands],
            betLevels: [...machine.betLevels],
            lines: 20,
            ...(headless ? { headless: true } : {}),
          },
        });
      }
      // Ping keeps NAT/proxies from idling the socket out and lets us notice a dead server.
      let alive = true;
      ws.on('pong', () => (alive = true));
      this.heartbeat = setInterval(() => {
        if (!alive) return ws.terminate();
        alive = false;
        ws.ping();
      }, HEARTBEAT_MS);
      const ackTimeoutMs = this.opts.cycleAckTimeoutMs ?? CYCLE_ACK_TIMEOUT_MS;
      this.resendTimer = setInterval(() => this.resendOverdueCycles(ackTimeoutMs), ackTimeoutMs / 5);
    });
    ws.on('message', (raw) => {
      const read = readAgentServerMessage(String(raw));
      if (!read.ok) return this.opts.log?.(`server message refused: ${read.reason}`);
      this.onMessage(ws, read.message);
    });
    ws.on('error', (err) => this.opts.log?.(`agent socket error: ${err.message}`));
    ws.on('close', () => {
      if (this.heartbeat) clearInterval(this.heartbeat);
      this.heartbeat = null;
      if (this.resendTimer) clearInterval(this.resendTimer);
      this.resendTimer = null;
      for (const slot of this.slots.values()) {
        slot.authed = false;
        slot.cycleSentAtMs.clear();
        // A session that ended meanwhile cannot reset the view: the server re-sends a live camera choice.
        slot.entry.stream?.setView('screen');
      }
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.status === AgentStatus.Stopped) return;
      this.setStatus(AgentStatus.Closed);
      const delay = this.reconnects.next();
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  private onMessage(ws: WebSocket, msg: AgentServerMessage): void {
    switch (msg.event) {
      case 'auth_result': {
        const slot = this.slots.get(msg.data.machineId);
        if (!slot) return;
        slot.authed = msg.data.ok;
        this.emit('auth', msg.data.machineId, msg.data.ok, msg.data.reason);
        if (!msg.data.ok) {
          this.opts.log?.(
            `machine ${msg.data.machineId} refused by server (${msg.data.reason ?? 'no reason'})`,
          );
          return;
        }
        slot.entry.machine.setOffline(false);
        slot.entry.machine.announce();
        // Every game not acknowledged yet, in play order, before the results of commands: a cash
        // out's result must find the games played before it already on their way.
        this.sendCycles(slot);
        const queued = slot.outbox.splice(0);
        for (const m of queued) this.raw(ws, m);
        // After the machine's state and meters are on their way: the server must not wait for a
        // repaint in the brand's look to learn the credits.
        if (msg.data.profile) this.emit('profile', msg.data.machineId, msg.data.profile);
        return;
      }
      case 'command': {
        const slot = this.slots.get(msg.data.machineId);
        if (!slot || !slot.authed) return;
        void this.runCommand(slot, msg.data.command).then((result) =>
          this.sendQueued(slot, { event: 'command_result', data: { machineId: msg.data.machineId, result } }),
        );
        return;
      }
      case 'cycle_ack': {
        const slot = this.slots.get(msg.data.machineId);
        if (!slot) return;
        slot.cycleSentAtMs.delete(msg.data.gameId);
        slot.entry.machine.acknowledge(msg.data.gameId);
        return;
      }
      case 'emergency_stop': {
        const slot = this.slots.get(msg.data.machineId);
        if (!slot || !slot.authed) return;
        void slot.entry.machine.setEmergencyStop(msg.data.stopped ? msg.data.reason : null);
        return;
      }
      case 'welcome':
      case 'error':
        return;
    }
  }

  private runCommand(slot: Slot, command: AgentCommand): Promise<CommandResult> {
    const { machine, stream } = slot.entry;
    const ok = (extra: Partial<CommandResult> = {}): CommandResult => ({
      commandId: command.commandId,
      type: command.type,
      outcome: 'ok',
      creditsCents: machine.meters.creditsCents,
      ...extra,
    });
    switch (command.type) {
      case 'stream_start':
        return machine.executeExternal(command, async () => {
          if (!stream) return ok({ outcome: 'rejected', reason: 'unsupported' });
          await stream.start(command.target);
          return ok();
        });
      case 'stream_stop':
        return machine.executeExternal(command, async () => {
          await stream?.stop();
          return ok();
        });
      case 'set_band':
        return machine.executeExternal(command, async () => {
          if (!stream || !stream.hasBand(command.bandId))
            return ok({ outcome: 'rejected', reason: 'unknown_band' });
          await stream.setBand(command.bandId);
          return ok();
        });
      case 'set_view':
        return machine.executeExternal(command, () =>
          Promise.resolve(stream?.setView(command.view) ? ok() : ok({ outcome: 'rejected', reason: 'unsupported' })),
        );
      case 'keyframe':
        return machine.executeExternal(command, async () => {
          if (!stream) return ok({ outcome: 'rejected', reason: 'unsupported' });
          await stream.requestKeyframe();
          return ok();
        });
      default:
        return machine.execute(command);
    }
  }

  /** A still of the machine's screen for the lobby; dropped while the machine is not connected. */
  sendSnapshot(machineId: number, jpeg: Buffer): void {
    const slot = this.slots.get(machineId);
    if (!slot) return;
    this.sendLive(slot, {
      event: 'snapshot',
      data: { machineId, view: 'screen', mime: 'image/jpeg', dataBase64: jpeg.toString('base64') },
    });
  }

  private raw(ws: WebSocket, msg: AgentClientMessage): void {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  }

  /** State and meters are snapshots: when offline they are simply re-sent after re-auth. */
  private sendLive(slot: Slot, msg: AgentClientMessage): void {
    if (slot.authed && this.ws) this.raw(this.ws, msg);
  }

  private sendCycle(slot: Slot, cycle: GameCycle): void {
    if (!slot.authed || !this.ws) return;
    slot.cycleSentAtMs.set(cycle.gameId, Date.now());
    this.raw(this.ws, { event: 'cycle', data: { machineId: slot.entry.machine.machineId, cycle } });
  }

  /** The machine's whole outbox, oldest first. */
  private sendCycles(slot: Slot): void {
    for (const cycle of [...slot.entry.machine.unacknowledgedGames]) this.sendCycle(slot, cycle);
  }

  /**
   * The server stores a machine's games in play order and holds back the ones after a game it
   * failed to store (its database went away mid-insert): when the oldest game waits too long for
   * its acknowledgement, the whole outbox goes again.
   */
  private resendOverdueCycles(ackTimeoutMs: number): void {
    const now = Date.now();
    for (const slot of this.slots.values()) {
      const oldest = slot.entry.machine.unacknowledgedGames[0];
      if (!slot.authed || !oldest) continue;
      if (now - (slot.cycleSentAtMs.get(oldest.gameId) ?? 0) >= ackTimeoutMs) this.sendCycles(slot);
    }
  }

  /** Command results must arrive: queue them while the machine is not connected. */
  private sendQueued(slot: Slot, msg: AgentClientMessage): void {
    if (slot.authed && this.ws && this.ws.readyState === WebSocket.OPEN) return this.raw(this.ws, msg);
    slot.outbox.push(msg);
    if (slot.outbox.length > OUTBOX_LIMIT) slot.outbox.shift();
  }
}
