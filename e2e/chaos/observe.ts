/**
 * Reads what the product holds, for the checker: the ledger (every operation since the run started,
 * with what it did to each wallet part), every wallet part, the game records, the machines' cash
 * out commands, the malfunctions, the books' own invariants, and each cabinet's critical memory
 * straight from its file (apps/cabinet/src/game/critical-memory.ts: `{ sha256, body }`).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { emptyParts, type Baseline, type GameRecord, type HandPayRow, type LedgerOp, type Malfunction, type MemoryReading, type Observed, type Parts, type PayoutCommand, type WalletPart } from './history.js';

/** A cabinet's memory file, its checksum checked; null when missing or unreadable. */
function readMemory(cabinetsDir: string, machineId: number): MemoryReading | null {
  try {
    const { sha256, body } = JSON.parse(fs.readFileSync(path.join(cabinetsDir, `machine-${machineId}.json`), 'utf8')) as { sha256: string; body: string };
    if (createHash('sha256').update(body).digest('hex') !== sha256) return null;
    const image = JSON.parse(body) as { memoryId: string; meters: MemoryReading['meters']; unackedGames?: { gameId: string }[] };
    const m = image.meters;
    return {
      memoryId: image.memoryId,
      meters: { creditsCents: m.creditsCents, coinInCents: m.coinInCents, coinOutCents: m.coinOutCents, cashInCents: m.cashInCents, cashOutCents: m.cashOutCents, gamesPlayed: m.gamesPlayed },
      unackedGameIds: (image.unackedGames ?? []).map((g) => g.gameId),
    };
  } catch {
    return null;
  }
}

export function readMemories(cabinetsDir: string, machineIds: number[]): Record<number, MemoryReading | null> {
  return Object.fromEntries(machineIds.map((id) => [id, readMemory(cabinetsDir, id)]));
}

async function wallets(db: pg.Client): Promise<Record<string, Parts>> {
  const { rows } = await db.query<{ username: string; part: WalletPart; balance: string }>(
    "SELECT p.username, a.part, a.balance FROM accounts a JOIN players p ON p.id = a.player_id WHERE a.kind = 'wallet'",
  );
  const out: Record<string, Parts> = {};
  for (const r of rows) (out[r.username] ??= emptyParts())[r.part] = Number(r.balance);
  return out;
}

export async function readBaseline(databaseUrl: string, cabinetsDir: string, machineIds: number[]): Promise<Baseline> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const last = await db.query<{ id: string | null }>('SELECT max(id) AS id FROM ledger_operations');
    return { wallets: await wallets(db), memories: readMemories(cabinetsDir, machineIds), lastOperationId: Number(last.rows[0]!.id ?? 0) };
  } finally {
    await db.end();
  }
}

async function ledger(db: pg.Client, after: number): Promise<LedgerOp[]> {
  const { rows } = await db.query<{ id: string; kind: string; username: string | null; idempotency_key: string | null; amount_cents: string; session_id: string | null; machine_id: number | null; created_at: Date }>(
    // A settlement's adjustment has no player of its own: its session's.
    `SELECT o.id, o.kind, coalesce(p.username, sp.username) AS username, o.idempotency_key, o.amount_cents, o.session_id, o.machine_id, o.created_at
       FROM ledger_operations o LEFT JOIN players p ON p.id = o.player_id
       LEFT JOIN slot_sessions s ON s.id = o.session_id LEFT JOIN players sp ON sp.id = s.player_id
      WHERE o.id > $1 ORDER BY o.id`,
    [after],
  );
  const entries = await db.query<{ operation_id: string; username: string; part: WalletPart; amount: string }>(
    `SELECT e.operation_id, p.username, a.part, sum(e.amount_cents) AS amount FROM ledger_entries e
       JOIN accounts a ON a.id = e.account_id AND a.kind = 'wallet' JOIN players p ON p.id = a.player_id
      WHERE e.operation_id > $1 GROUP BY e.operation_id, p.username, a.part`,
    [after],
  );
  const ops = new Map<number, LedgerOp>(
    rows.map((r) => [
      Number(r.id),
      { id: Number(r.id), kind: r.kind, player: r.username, key: r.idempotency_key, amountCents: Number(r.amount_cents), sessionId: r.session_id, machineId: r.machine_id, atMs: r.created_at.getTime(), parts: emptyParts() },
    ]),
  );
  for (const e of entries.rows) {
    const op = ops.get(Number(e.operation_id));
    if (op && op.player === e.username) op.parts[e.part] += Number(e.amount);
  }
  return [...ops.values()];
}

async function records(db: pg.Client): Promise<GameRecord[]> {
  const { rows } = await db.query<{ machine_id: number; username: string | null; session_id: string | null; game_id: string; started_ms: string; created_at: Date; command_id: string | null; bet_cents: string; win_cents: string; free_spin: boolean; jackpot: boolean }>(
    `SELECT c.machine_id, p.username, c.session_id, c.game_id, c.started_ms, c.created_at, c.command_id, c.bet_cents, c.win_cents, c.free_spin, c.jackpot
       FROM game_cycles c LEFT JOIN slot_sessions s ON s.id = c.session_id LEFT JOIN players p ON p.id = s.player_id ORDER BY c.id`,
  );
  return rows.map((r) => ({
    machineId: r.machine_id,
    player: r.username,
    sessionId: r.session_id,
    gameId: r.game_id,
    startedMs: Number(r.started_ms),
    recordedMs: r.created_at.getTime(),
    // The cabinet got the spin as `<session id>:<client's command id>`.
    commandId: r.command_id === null ? null : r.command_id.slice(r.command_id.indexOf(':') + 1),
    betCents: Number(r.bet_cents),
    winCents: Number(r.win_cents),
    freeSpin: r.free_spin,
    jackpotHit: r.jackpot,
  }));
}

async function payouts(db: pg.Client): Promise<PayoutCommand[]> {
  const { rows } = await db.query<{ machine_id: number; username: string; command_id: string; type: string; status: string; amount_cents: string | null }>(
    `SELECT m.machine_id, p.username, m.command_id, m.type, m.status, m.amount_cents FROM machine_commands m JOIN players p ON p.id = m.player_id
      WHERE m.type IN ('cash_out', 'hand_pay')`,
  );
  return rows.map((r) => ({ machineId: r.machine_id, player: r.username, commandId: r.command_id, type: r.type, status: r.status, amountCents: r.amount_cents === null ? null : Number(r.amount_cents) }));
}

async function malfunctions(db: pg.Client): Promise<Malfunction[]> {
  const { rows } = await db.query<{ id: string; at: Date; machine_id: number; session_id: string | null; reason: string; records_cents: string; machine_cents: string; paid_cents: string | null; missing_games: string[] }>(
    'SELECT id, at, machine_id, session_id, reason, records_cents, machine_cents, paid_cents, missing_games FROM malfunctions ORDER BY id',
  );
  return rows.map((m) => ({
    id: Number(m.id),
    at: m.at.getTime(),
    machineId: m.machine_id,
    sessionId: m.session_id,
    reason: m.reason,
    recordsCents: Number(m.records_cents),
    machineCents: Number(m.machine_cents),
    paidCents: m.paid_cents === null ? null : Number(m.paid_cents),
    missingGames: m.missing_games,
  }));
}

async function handPays(db: pg.Client): Promise<HandPayRow[]> {
  const { rows } = await db.query<{ id: number; machine_id: number; username: string; amount_cents: string; status: string; requested_at: Date; paid_at: Date | null }>(
    'SELECT h.id, h.machine_id, p.username, h.amount_cents, h.status, h.requested_at, h.paid_at FROM hand_pays h JOIN players p ON p.id = h.player_id ORDER BY h.id',
  );
  return rows.map((h) => ({
    id: Number(h.id),
    machineId: h.machine_id,
    player: h.username,
    amountCents: Number(h.amount_cents),
    status: h.status,
    requestedMs: h.requested_at.getTime(),
    paidMs: h.paid_at?.getTime() ?? null,
  }));
}

/** The books' own invariants: each operation and the whole ledger sum to zero, balances equal entries, nothing left open. */
async function books(db: pg.Client): Promise<string[]> {
  const found: string[] = [];
  const unbalanced = await db.query('SELECT operation_id, sum(amount_cents) AS s FROM ledger_entries GROUP BY operation_id HAVING sum(amount_cents) <> 0');
  for (const row of unbalanced.rows) found.push(`ledger operation ${row.operation_id} does not sum to zero (${row.s})`);
  const total = await db.query<{ s: string | null }>('SELECT sum(amount_cents) AS s FROM ledger_entries');
  if (Number(total.rows[0]!.s ?? 0) !== 0) found.push(`the ledger sums to ${total.rows[0]!.s}, not 0`);
  const drifted = await db.query(
    `SELECT a.id, a.kind, a.balance, COALESCE(sum(e.amount_cents), 0) AS entries FROM accounts a
       LEFT JOIN ledger_entries e ON e.account_id = a.id WHERE a.kind IN ('wallet', 'machine')
       GROUP BY a.id HAVING a.balance <> COALESCE(sum(e.amount_cents), 0)`,
  );
  for (const row of drifted.rows) found.push(`${row.kind} account ${row.id}: balance ${row.balance}, entries say ${row.entries}`);
  const open = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM slot_sessions WHERE status <> 'closed'");
  if (open.rows[0]!.n > 0) found.push(`${open.rows[0]!.n} sessions are still open after every player left`);
  const onMachines = await db.query<{ machine_id: number; balance: string }>("SELECT machine_id, balance FROM accounts WHERE kind = 'machine' AND balance <> 0");
  for (const row of onMachines.rows) found.push(`machine ${row.machine_id} still holds ${row.balance} cents with no open session`);
  const pending = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM machine_commands WHERE status = 'pending'");
  if (pending.rows[0]!.n > 0) found.push(`${pending.rows[0]!.n} money commands are still pending`);
  return found;
}

export async function observe(databaseUrl: string, cabinetsDir: string, machineIds: number[], baseline: Baseline): Promise<Observed> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return {
      wallets: await wallets(db),
      ledger: await ledger(db, baseline.lastOperationId),
      records: await records(db),
      payouts: await payouts(db),
      memories: readMemories(cabinetsDir, machineIds),
      malfunctions: await malfunctions(db),
      handPays: await handPays(db),
      books: await books(db),
    };
  } finally {
    await db.end();
  }
}
