/**
 * The server's side of the agent channel: which machines are connected, their last state and
 * meters, and commands with ids whose results are awaited with a timeout. Every message a cabinet
 * sends is checked against its schema (agent-schemas.ts) first; one that does not match is logged
 * and answered `error`, never acted on. Independent of the WebSocket library: it talks to a
 * minimal `AgentSocket`, so tests can drive it directly.
 */
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import {
  AGENT_PROTOCOL_VERSION,
  AgentCloseCode,
  Code,
  readAgentClientMessage,
  type AgentClientMessage,
  type AgentClientEvents,
  type AgentCommand,
  type AgentMachineState,
  type AgentServerMessage,
  type CommandResult,
  type MachineMeters,
  type MachineProfile,
} from '@reel/protocol';

interface AgentSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

type VerifyMachineKey = (machineId: number, key: string) => Promise<boolean>;

export interface ConnectedMachine {
  machineId: number;
  agentId: string;
  state: AgentMachineState;
  /** Why the machine's video cannot start (its encoder gave up), or null; the state is then 'error'. */
  videoError: string | null;
  /** The staff's reason while the cabinet reports an emergency stop holding; null otherwise. */
  emergencyStop: string | null;
  meters: MachineMeters | null;
  info: Omit<AgentClientEvents['auth'], 'key' | 'machineId'>;
  connectedAtMs: number;
}

export interface AgentHubEvents {
  connected: [ConnectedMachine];
  disconnected: [{ machineId: number }];
  state: [AgentClientEvents['state']];
  cycle: [AgentClientEvents['cycle']];
  meters: [AgentClientEvents['meters']];
  command_result: [AgentClientEvents['command_result']];
  snapshot: [AgentClientEvents['snapshot']];
  refused: [{ machineId: number; reason: string }];
}

/**
 * A command whose result the server does not know: not sent (`not_connected`), or sent and not
 * answered, because the time ran out (`timeout`) or the cabinet's connection ended first
 * (`disconnected`). The cabinet may have run it: callers treat all three alike, and a money command
 * stays pending in its outbox until the cabinet answers it again (it never runs an id twice).
 */
export class AgentCommandError extends Error {
  /** What a player is told: the machine did not answer. */
  readonly code = Code.MachineNoAnswer;
  constructor(
    readonly reason: 'timeout' | 'not_connected' | 'disconnected',
    message: string,
  ) {
    super(message);
  }
}

/** A command without its id: the hub assigns one unless the caller passes its own (to retry). */
export type CommandInput = AgentCommand extends infer C
  ? C extends AgentCommand
    ? Omit<C, 'commandId'> & { commandId?: string }
    : never
  : never;

interface Pending {
  machineId: number;
  /** The connection the command went out on: only its end fails the command early. */
  conn: AgentConnection;
  resolve: (r: CommandResult) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

interface AgentHubOptions {
  verifyMachineKey: VerifyMachineKey;
  /** What an authenticated cabinet is told about its machine (brand, frame rate); none when absent. */
  machineProfile?: (machineId: number) => Promise<MachineProfile | null>;
  /** The emergency stop the records hold for a machine (sent after every authentication); null: none. */
  emergencyStop?: (machineId: number) => Promise<{ reason: string } | null>;
  commandTimeoutMs?: number;
  log?: { info: (o: object, msg: string) => void; warn: (o: object, msg: string) => void };
}

const DEFAULT_COMMAND_TIMEOUT_MS = 5000;
/** A lobby still larger than this (base64 characters) is dropped. */
const MAX_SNAPSHOT_BASE64 = 200_000;
/** A cabinet's video error is one ffmpeg line; anything longer is cut. */
const MAX_VIDEO_ERROR_CHARS = 300;

export class AgentHub extends EventEmitter<AgentHubEvents> {
  private readonly machines = new Map<number, { conn: AgentConnection; machine: ConnectedMachine }>();
  private readonly pending = new Map<string, Pending>();
  private readonly timeoutMs: number;

  constructor(private readonly opts: AgentHubOptions) {
    super();
    this.timeoutMs = opts.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  }

  /** Wraps a freshly accepted socket; feed it every text message and tell it when it closes. */
  accept(socket: AgentSocket): AgentConnection {
    return new AgentConnection(this, socket);
  }

  isConnected(machineId: number): boolean {
    return this.machines.has(machineId);
  }
  get(machineId: number): ConnectedMachine | undefined {
    return this.machines.get(machineId)?.machine;
  }
  list(): ConnectedMachine[] {
    return [...this.machines.values()].map((m) => m.machine);
  }

  /**
   * Sends a command and resolves with the cabinet's result. On timeout, retry with the same
   * `commandId`: the cabinet answers a repeat with the first result and never runs it twice.
   */
  sendCommand(
    machineId: number,
    input: CommandInput,
    opts: { timeoutMs?: number } = {},
  ): Promise<CommandResult> {
    const entry = this.machines.get(machineId);
    if (!entry)
      return Promise.reject(new AgentCommandError('not_connected', `machine ${machineId} is not connected`));
    const command = { ...input, commandId: input.commandId ?? randomUUID() } as AgentCommand;
    return new Promise<CommandResult>((ownResolve, ownReject) => {
      const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
      const key = `${machineId}:${command.commandId}`;
      // The same command asked again before its answer (a cluster call asked again of a shard's new
      // owner, a player's resend): the cabinet answers the repeat with the first result, and both
      // askers get it. The first one used to be dropped here, its promise never settled.
      const earlier = this.pending.get(key);
      if (earlier) clearTimeout(earlier.timer);
      const resolve = (result: CommandResult) => (earlier?.resolve(result), ownResolve(result));
      const reject = (error: Error) => (earlier?.reject(error), ownReject(error));
      const timer = setTimeout(() => {
        this.pending.delete(key);
        reject(
          new AgentCommandError(
            'timeout',
            `machine ${machineId} did not answer ${command.type} within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      this.pending.set(key, { machineId, conn: entry.conn, resolve, reject, timer });
      entry.conn.send({ event: 'command', data: { machineId, command } });
    });
  }

  /**
   * Tells the cabinet that a game's cycle is stored (call only after its transaction committed):
   * it drops the game from its outbox. Not connected: the cabinet sends the game again after it
   * reconnects and is acknowledged then.
   */
  acknowledgeCycle(machineId: number, gameId: string): void {
    this.machines.get(machineId)?.conn.send({ event: 'cycle_ack', data: { machineId, gameId } });
  }

  /** Stops or releases the cabinet (the console's emergency stop); false when it is not connected now. */
  sendEmergencyStop(machineId: number, stop: { reason: string } | null): boolean {
    const entry = this.machines.get(machineId);
    if (!entry) return false;
    entry.conn.send({ event: 'emergency_stop', data: { machineId, stopped: stop !== null, reason: stop?.reason ?? '' } });
    return true;
  }

  /** The records' emergency stop for a machine; a failed lookup keeps the cabinet's own. */
  async recordedStop(machineId: number): Promise<{ reason: string } | null | undefined> {
    try {
      return this.opts.emergencyStop ? await this.opts.emergencyStop(machineId) : undefined;
    } catch (err) {
      this.opts.log?.warn({ machineId, err: String(err) }, 'emergency stop lookup failed');
      return undefined;
    }
  }

  /** The profile sent with a successful auth_result; null when unknown or the lookup fails. */
  async profile(machineId: number): Promise<MachineProfile | null> {
    try {
      return (await this.opts.machineProfile?.(machineId)) ?? null;
    } catch (err) {
      this.opts.log?.warn({ machineId, err: String(err) }, 'machine profile lookup failed');
      return null;
    }
  }

  /** Drops every connection (server shutdown); their pending commands fail as disconnected. */
  closeAll(): void {
    for (const { conn } of [...this.machines.values()]) conn.close(1001, 'server shutting down');
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }

  /**
   * The connection a machine's commands went out on is gone: their results cannot come back on it,
   * so they fail now, exactly as a timeout would fail them later (a money command stays pending
   * and is sent again, with the same id, once the cabinet is back).
   */
  private failPending(machineId: number, conn: AgentConnection): void {
    for (const [key, p] of this.pending) {
      if (p.machineId !== machineId || p.conn !== conn) continue;
      this.pending.delete(key);
      clearTimeout(p.timer);
      p.reject(new AgentCommandError('disconnected', `machine ${machineId} disconnected before answering`));
    }
  }

  /** @internal A message that was refused or failed: the first few of a connection are logged, then every 100th. */
  warnMessage(conn: AgentConnection, count: number, details: object, message: string): void {
    if (count <= LOGGED_REFUSALS || count % 100 === 0)
      this.opts.log?.warn({ agentId: conn.agentId, ...details, count }, message);
  }

  /** @internal */
  async authenticate(conn: AgentConnection, data: AgentClientEvents['auth']): Promise<boolean> {
    const { machineId, key } = data;
    let ok = false;
    try {
      ok = await this.opts.verifyMachineKey(machineId, key);
    } catch (err) {
      this.opts.log?.warn({ machineId, err: String(err) }, 'machine key check failed');
    }
    if (!ok) {
      this.opts.log?.warn({ machineId, agentId: conn.agentId }, 'agent machine refused');
      this.emit('refused', { machineId, reason: 'bad_key' });
      return false;
    }
    const previous = this.machines.get(machineId);
    if (previous && previous.conn !== conn) {
      // One live connection per machine: the newest wins (a restarted agent reconnects first).
      previous.conn.send({ event: 'auth_result', data: { machineId, ok: false, reason: 'duplicate' } });
      previous.conn.forget(machineId);
      this.failPending(machineId, previous.conn);
    }
    const { key: _key, machineId: _id, ...info } = data;
    const machine: ConnectedMachine = {
      machineId,
      agentId: conn.agentId,
      state: 'idle',
      videoError: null,
      emergencyStop: null,
      meters: null,
      info,
      connectedAtMs: Date.now(),
    };
    this.machines.set(machineId, { conn, machine });
    this.opts.log?.info({ machineId, agentId: conn.agentId }, 'agent machine connected');
    this.emit('connected', machine);
    return true;
  }

  /** @internal */
  detach(conn: AgentConnection, machineId: number): void {
    const entry = this.machines.get(machineId);
    if (!entry || entry.conn !== conn) return;
    this.machines.delete(machineId);
    this.failPending(machineId, conn);
    const prev = entry.machine.state;
    entry.machine.state = 'offline';
    this.emit('state', {
      machineId,
      state: 'offline',
      previous: prev,
      atMs: Date.now(),
      reason: 'agent disconnected',
    });
    this.emit('disconnected', { machineId });
  }

  /** @internal */
  report(conn: AgentConnection, msg: AgentClientMessage): void {
    if (msg.event === 'hello' || msg.event === 'auth') return;
    const machineId = msg.data.machineId;
    const entry = this.machines.get(machineId);
    if (!entry || entry.conn !== conn) return;
    switch (msg.event) {
      case 'state': {
        const videoError = msg.data.videoError?.slice(0, MAX_VIDEO_ERROR_CHARS) ?? null;
        if (videoError !== entry.machine.videoError) {
          if (videoError) this.opts.log?.warn({ machineId, videoError }, 'machine video unavailable');
          else this.opts.log?.info({ machineId }, 'machine video restored');
        }
        entry.machine.state = msg.data.state;
        entry.machine.videoError = videoError;
        entry.machine.emergencyStop = msg.data.emergencyStop ?? null;
        this.emit('state', msg.data);
        return;
      }
      case 'meters':
        entry.machine.meters = msg.data.meters;
        this.emit('meters', msg.data);
        return;
      case 'cycle':
        this.emit('cycle', msg.data);
        return;
      case 'snapshot':
        if (msg.data.dataBase64.length > MAX_SNAPSHOT_BASE64) return;
        this.emit('snapshot', msg.data);
        return;
      case 'command_result': {
        const key = `${machineId}:${msg.data.result.commandId}`;
        const p = this.pending.get(key);
        this.emit('command_result', msg.data);
        if (!p) return;
        this.pending.delete(key);
        clearTimeout(p.timer);
        p.resolve(msg.data.result);
        return;
      }
    }
  }
}

const HELLO_TIMEOUT_MS = 10_000;
/** Refused messages logged per connection before only every 100th is (a broken cabinet repeats itself). */
const LOGGED_REFUSALS = 10;
const MAX_MACHINES_PER_AGENT = 256;

/** One agent's socket: handshake, per-machine authentication, message routing. */
class AgentConnection {
  agentId = 'unknown';
  private hello = false;
  private readonly authed = new Set<number>();
  private readonly helloTimer: NodeJS.Timeout;
  private closed = false;
  private refused = 0;

  constructor(
    private readonly hub: AgentHub,
    private readonly socket: AgentSocket,
  ) {
    this.helloTimer = setTimeout(() => {
      if (!this.hello) this.close(AgentCloseCode.Unauthorized, 'no hello');
    }, HELLO_TIMEOUT_MS);
  }

  send(msg: AgentServerMessage): void {
    if (!this.closed) this.socket.send(JSON.stringify(msg));
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
    this.onClose();
  }

  forget(machineId: number): void {
    this.authed.delete(machineId);
  }

  onClose(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.helloTimer);
    for (const id of this.authed) this.hub.detach(this, id);
    this.authed.clear();
  }

  /** Never rejects: what goes wrong with one message is logged, and the next one is read as usual. */
  async onMessage(raw: string): Promise<void> {
    const read = readAgentClientMessage(raw);
    if (!read.ok) {
      this.hub.warnMessage(this, ++this.refused, { reason: read.reason }, 'agent message refused');
      return this.send({ event: 'error', data: { reason: read.reason === 'bad_json' ? 'bad_json' : 'bad_message' } });
    }
    try {
      await this.handle(read.message);
    } catch (err) {
      this.hub.warnMessage(this, ++this.refused, { event: read.message.event, err: String(err) }, 'agent message failed');
    }
  }

  private async handle(msg: AgentClientMessage): Promise<void> {
    if (msg.event === 'hello') {
      if (msg.data.protocol !== AGENT_PROTOCOL_VERSION)
        return this.close(AgentCloseCode.ProtocolMismatch, 'protocol version');
      this.hello = true;
      this.agentId = msg.data.agentId.slice(0, 100);
      clearTimeout(this.helloTimer);
      return this.send({
        event: 'welcome',
        data: { protocol: AGENT_PROTOCOL_VERSION, serverTimeMs: Date.now() },
      });
    }
    if (!this.hello) return this.close(AgentCloseCode.Unauthorized, 'hello first');
    if (msg.event === 'auth') {
      const machineId = msg.data.machineId;
      if (this.authed.size >= MAX_MACHINES_PER_AGENT)
        return this.send({ event: 'auth_result', data: { machineId, ok: false, reason: 'protocol' } });
      // The profile is read before the machine counts as connected: once it does, the server sends
      // it commands, and the cabinet takes commands only after its auth_result.
      const [profile, stop] = await Promise.all([this.hub.profile(machineId), this.hub.recordedStop(machineId)]);
      const ok = await this.hub.authenticate(this, msg.data);
      if (this.closed) return;
      if (ok) this.authed.add(machineId);
      this.send({
        event: 'auth_result',
        data: ok ? { machineId, ok, ...(profile ? { profile } : {}) } : { machineId, ok, reason: 'bad_key' },
      });
      // The cabinet holds the server's word on an emergency stop: set while staff stopped it
      // (perhaps while it was away), released otherwise.
      if (ok && stop !== undefined) this.hub.sendEmergencyStop(machineId, stop);
      return;
    }
    // Reports of machines this connection has not authenticated are ignored.
    if (!this.authed.has(msg.data.machineId)) return;
    this.hub.report(this, msg);
  }
}
