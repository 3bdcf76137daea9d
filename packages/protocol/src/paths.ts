/**
 * REST and WebSocket paths (spec section 7). REST paths are relative to the API base (`/api/` by
 * default); `/check` and `/Settings.json` sit at the site root. Paths the spec leaves "not shown"
 * are defined under `/player/...` and listed in docs/api.md.
 */
export const ApiPath = {
  login: '/login',
  validate: '/validate',
  logout: '/player/logout',
  balance: '/player/balance',
  profile: '/player/profile',
  changePassword: '/player/password',
  setPin: '/player/pin',
  verifyPin: '/player/pin/verify',
  kick: '/player/kick',
  cancel: '/player/cancel',
  /** The player's open session, for the reconnect dialog (also pushed as a `session` notification). */
  openSession: '/player/session',
  discount: '/player/discount',
  bonus: '/player/bonus',
  slotSessions: '/player/slot-sessions',
  slotSessionsCsv: '/player/slot-sessions.csv',
  /** A session's last 10 games from the records, and all its games as CSV (issue 28). */
  sessionGames: '/player/slot-sessions/:id/games',
  sessionGamesCsv: '/player/slot-sessions/:id/games.csv',
  transactions: '/player/transactions',
  transactionsCsv: '/player/transactions.csv',
  notificationTicket: '/player/ws-ticket',
  /** Player protection (issue 28): the player's limits, and the confirmation of a raise. */
  limits: '/player/limits',
  limitsConfirm: '/player/limits/confirm',
  /** Player protection: a cool-off or self-exclusion, taken by the player. */
  takeBreak: '/player/break',
  /** Player protection: the reality check's interval (PUT) and its acknowledgement (POST …/ack). */
  realityCheck: '/player/reality-check',
  realityCheckAck: '/player/reality-check/ack',
  /** The queue for a busy machine (issue 29): the player's entry (GET), join (POST), leave (DELETE). */
  queue: '/player/queue',
  machineBrands: '/machine/brands',
  machineAll: '/machine/all',
  machineById: '/machine/:id',
  /**
   * The machine's computed image path (spec section 3): a recent still of its screen, or its brand's
   * art when there is none. Public (an <img> sends no bearer header); see machineImagePath.
   */
  machineImage: '/machine/:id/image',
  /** The slot game's paytable, from the cabinets' own tables (PaytableResponse). */
  paytable: '/machine/paytable',
  userUpdate: '/api/auth/user/update',
  register: '/api/auth/register',
  chatContacts: '/api/chat/contacts',
  chatUser: '/api/chat/user',
  chatUserData: '/api/chat/user/data',
  chatGetChat: '/api/chat/get-chat',
  chatSendMessage: '/api/chat/send-message',
  quickPanelData: '/api/quick-panel/data',
} as const;

/**
 * A machine's picture in the lobby: the operator's image when one is set, else the computed path
 * under the API base (`API_URL`), which the server fills with a recent screen still or brand art.
 */
export function machineImagePath(apiBase: string, machine: { id: number; image: string | null }): string {
  if (machine.image) return machine.image;
  return `${apiBase.replace(/\/+$/, '')}${ApiPath.machineImage.replace(':id', String(machine.id))}`;
}

/** Paths at the site root, outside the API base. */
export const RootPath = { check: '/check', settings: '/Settings.json', docs: '/api/docs' } as const;

/** WebSocket paths (site root). Browsers pass the token in the query, as the spec says. */
export const WsPath = {
  notifications: '/ws/notifications',
  /**
   * `/ws/game?token=…&machineId=n`: the machine id in the query is only a routing hint (the `init`
   * message names the machine); a cluster's HAProxy sends the socket to the server owning the
   * machine's shard (docs/scale.md), so its commands do not cross servers.
   */
  game: '/ws/game',
  jackpot: '/ws/jackpot',
  /** A spectator's channel: `/ws/watch?token=…&machineId=n` (modules/spectators). */
  watch: '/ws/watch',
  agent: '/ws/agent',
} as const;

/** Several servers: the header of a WebSocket's upgrade answer naming the server that took the socket. */
export const SERVER_HEADER = 'x-reel-server';

/** The header every client-initiated money call carries; a retry with the same key returns the first answer. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
