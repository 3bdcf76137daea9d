/**
 * What must hold after any number of kill -9s, read from the database itself:
 * - the ledger balances (every operation's entries sum to zero; all accounts sum to zero);
 * - no wallet part and no machine account is negative, and with every session closed no credits
 *   are left on a machine account;
 * - every acknowledged cash in happened exactly once, every acknowledged spin is one game cycle,
 *   and no command id produced two game cycles;
 * - for every player: wallet now = wallet at the start + promotions credited + the game results
 *   recorded in the game cycles (wins − bets) + jackpots paid + what malfunction settlements paid
 *   above the records (from the house), to the cent;
 * - no malfunction: a healthy machine's meters always follow from the records, so each row of
 *   `malfunctions` is a violation, except on a machine whose memory the run damaged on purpose
 *   (from that moment on).
 */
import pg from 'pg';
import type { ChaosPlayer } from './player.js';

interface CheckReport {
  violations: string[];
  centsChecked: number;
  /** Every malfunction settlement, expected (a damaged memory) or not. */
  malfunctions: number;
}

/** A cabinet memory the run damaged on purpose: malfunctions are expected there from then on. */
export interface DamagedMemory {
  machineId: number;
  at: Date;
}

export async function walletTotals(client: pg.Client): Promise<Map<string, number>> {
  const { rows } = await client.query<{ username: string; total: string }>(
    `SELECT p.username, COALESCE(sum(a.balance), 0) AS total FROM players p
       LEFT JOIN accounts a ON a.player_id = p.id AND a.kind = 'wallet' GROUP BY p.username`,
  );
  return new Map(rows.map((r) => [r.username, Number(r.total)]));
}

export async function checkInvariants(
  databaseUrl: string,
  players: ChaosPlayer[],
  startWallets: Map<string, number>,
  damaged: DamagedMemory | null = null,
): Promise<CheckReport> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const violations: string[] = [];
  let centsChecked = 0;
  let malfunctions = 0;
  try {
    const unbalanced = await client.query(
      'SELECT operation_id, sum(amount_cents) AS s FROM ledger_entries GROUP BY operation_id HAVING sum(amount_cents) <> 0',
    );
    for (const row of unbalanced.rows) violations.push(`ledger operation ${row.operation_id} does not sum to zero (${row.s})`);
    const total = await client.query<{ s: string | null }>('SELECT sum(amount_cents) AS s FROM ledger_entries');
    if (Number(total.rows[0]!.s ?? 0) !== 0) violations.push(`the ledger sums to ${total.rows[0]!.s}, not 0`);
    const stored = await client.query(
      `SELECT a.id, a.kind, a.balance, COALESCE(sum(e.amount_cents), 0) AS entries FROM accounts a
         LEFT JOIN ledger_entries e ON e.account_id = a.id WHERE a.kind IN ('wallet', 'machine')
         GROUP BY a.id HAVING a.balance <> COALESCE(sum(e.amount_cents), 0) OR a.balance < 0`,
    );
    for (const row of stored.rows) violations.push(`${row.kind} account ${row.id}: balance ${row.balance}, entries say ${row.entries}`);
    const open = await client.query("SELECT count(*)::int AS n FROM slot_sessions WHERE status <> 'closed'");
    if (open.rows[0].n > 0) violations.push(`${open.rows[0].n} sessions are still open after every player left`);
    const onMachines = await client.query<{ machine_id: number; balance: string }>("SELECT machine_id, balance FROM accounts WHERE kind = 'machine' AND balance <> 0");
    for (const row of onMachines.rows) violations.push(`machine ${row.machine_id} still holds ${row.balance} cents with no open session`);

    for (const player of players) {
      const { rows: keys } = await client.query<{ idempotency_key: string; n: number }>(
        // The game channel namespaces a client's key: `cashin:<key>`.
        `SELECT substr(o.idempotency_key, 8) AS idempotency_key, count(*)::int AS n FROM ledger_operations o JOIN players p ON p.id = o.player_id
          WHERE p.username = $1 AND o.kind = 'cash_in' AND o.idempotency_key = ANY($2) GROUP BY o.idempotency_key`,
        [player.username, player.acked.cashIns.map((key) => `cashin:${key}`)],
      );
      const counted = new Map(keys.map((k) => [k.idempotency_key, k.n]));
      for (const key of player.acked.cashIns)
        if (counted.get(key) !== 1) violations.push(`${player.username}: acknowledged cash in ${key} happened ${counted.get(key) ?? 0} times`);
      const { rows: spins } = await client.query<{ command_id: string; n: number }>(
        // The server sends a client's spin to the cabinet as `<session id>:<command id>`.
        "SELECT split_part(command_id, ':', 2) AS command_id, count(*)::int AS n FROM game_cycles WHERE split_part(command_id, ':', 2) = ANY($1) GROUP BY command_id",
        [player.acked.spins],
      );
      const cycles = new Map(spins.map((s) => [s.command_id, s.n]));
      for (const id of player.acked.spins)
        if (cycles.get(id) !== 1) violations.push(`${player.username}: acknowledged spin ${id} is ${cycles.get(id) ?? 0} game cycles`);
    }
    const doubled = await client.query('SELECT command_id, count(*)::int AS n FROM game_cycles WHERE command_id IS NOT NULL GROUP BY command_id HAVING count(*) > 1');
    for (const row of doubled.rows) violations.push(`command ${row.command_id} produced ${row.n} game cycles`);

    const now = await walletTotals(client);
    const { rows: flows } = await client.query<{ username: string; promotions: string; games: string; jackpots: string; adjustments: string }>(
      `SELECT p.username,
              (SELECT COALESCE(sum(amount_cents), 0) FROM ledger_operations o WHERE o.player_id = p.id AND o.kind IN ('bonus', 'discount')) AS promotions,
              (SELECT COALESCE(sum(c.win_cents - c.bet_cents), 0) FROM game_cycles c JOIN slot_sessions s ON s.id = c.session_id WHERE s.player_id = p.id) AS games,
              (SELECT COALESCE(sum(amount_cents), 0) FROM ledger_operations o WHERE o.player_id = p.id AND o.kind = 'jackpot') AS jackpots,
              -- A settlement pays the player the meter's count when it is above the records: the house's part.
              (SELECT COALESCE(sum(o.amount_cents), 0) FROM ledger_operations o JOIN slot_sessions s ON s.id = o.session_id
                WHERE s.player_id = p.id AND o.kind = 'malfunction_adjustment') AS adjustments
         FROM players p`,
    );
    for (const flow of flows) {
      const start = startWallets.get(flow.username) ?? 0;
      const expected = start + Number(flow.promotions) + Number(flow.games) + Number(flow.jackpots) + Number(flow.adjustments);
      const actual = now.get(flow.username) ?? 0;
      centsChecked += Math.abs(actual);
      if (actual !== expected)
        violations.push(
          `${flow.username}: wallet ${actual} ≠ start ${start} + promotions ${flow.promotions} + game results ${flow.games} + jackpots ${flow.jackpots} + malfunction adjustments ${flow.adjustments} = ${expected} (off by ${actual - expected})`,
        );
    }

    const { rows: found } = await client.query<{
      id: number;
      at: Date;
      machine_id: number;
      session_id: string | null;
      reason: string;
      records_cents: string;
      machine_cents: string;
      paid_cents: string | null;
      missing_games: string[];
    }>('SELECT id, at, machine_id, session_id, reason, records_cents, machine_cents, paid_cents, missing_games FROM malfunctions ORDER BY id');
    malfunctions = found.length;
    for (const m of found) {
      if (damaged && m.machine_id === damaged.machineId && m.at >= damaged.at) continue;
      violations.push(
        `malfunction ${m.id} on machine ${m.machine_id} (session ${m.session_id ?? 'none'}, ${m.reason}): records ${m.records_cents}, machine ${m.machine_cents}, paid ${m.paid_cents ?? 'nothing'}` +
          (m.missing_games.length ? `, games missing from the records: ${m.missing_games.join(' ')}` : ''),
      );
    }
  } finally {
    await client.end();
  }
  return { violations, centsChecked, malfunctions };
}
