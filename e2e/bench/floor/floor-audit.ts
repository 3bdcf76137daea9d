/**
 * After the floor bench's play: nothing lost or doubled. The ledger audit and the players-vs-records
 * audit (apps/server/src/modules/ledger), then what the players were told against the database:
 * every spin result a player got is one game record (none missing, none twice) and counts on its
 * session, no machine found its meters off the records, every wallet is its deposit minus what its
 * player cashed in plus what it cashed out, and no session is left open.
 */
import type { Db } from '../../../apps/server/src/db/pool.js';
import { auditLedger } from '../../../apps/server/src/modules/ledger/ledger.js';
import { auditPlayers } from '../../../apps/server/src/modules/ledger/player-audit.js';
import type { FloorPlayer } from './floor-player.js';
import { FLOOR_DEPOSIT_CENTS } from './floor-seed.js';

interface FloorAudit {
  ok: boolean;
  lines: string[];
}

export async function auditFloor(db: Db, players: FloorPlayer[]): Promise<FloorAudit> {
  const lines: string[] = [];
  const problems: string[] = [];
  const ledger = await auditLedger(db);
  lines.push(`ledger audit: ${ledger.ok ? 'clean' : 'FAILED'} (total ${ledger.total}, unbalanced ${ledger.unbalanced}, drifted ${ledger.drifted}, negative ${ledger.negative})`);
  if (!ledger.ok) problems.push('ledger audit');
  const playersAudit = await auditPlayers(db);
  lines.push(`players-vs-records audit: ${playersAudit.ok ? 'clean' : `FAILED for ${playersAudit.mismatched.length} players`}`);
  if (!playersAudit.ok) problems.push('players-vs-records audit');

  // The cabinet got each spin as `<session id>:<client command id>`.
  const { rows } = await db.query<{ id: string; n: number }>(
    `SELECT split_part(command_id, ':', 2) AS id, count(*)::int AS n FROM game_cycles WHERE command_id LIKE '%:%' GROUP BY 1`,
  );
  const recorded = new Map(rows.map((r) => [r.id, r.n]));
  const doubled = rows.filter((r) => r.n > 1).length;
  let told = 0;
  let lost = 0;
  for (const p of players)
    for (const id of p.results) {
      told++;
      if (!recorded.has(id)) lost++;
    }
  lines.push(`spins: ${told} results told to players, ${lost} of them without a game record, ${doubled} command ids recorded twice`);
  if (lost || doubled) problems.push('spin records');
  // A game a player's spin started counts on that player's session (a new shard owner once
  // recorded one before it had loaded the shard's sessions: the meters then looked wrong).
  const orphans = (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM game_cycles WHERE session_id IS NULL AND command_id LIKE '%:%'")).rows[0]!.n;
  const malfunctions = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM malfunctions')).rows[0]!.n;
  lines.push(`games of a player's spin recorded without its session: ${orphans}; malfunctions (meters off the records): ${malfunctions}`);
  if (orphans || malfunctions) problems.push('games without their session or malfunctions');

  const wallets = await db.query<{ username: string; balance: string }>(
    `SELECT p.username, coalesce(sum(a.balance), 0)::bigint AS balance FROM players p LEFT JOIN accounts a ON a.player_id = p.id AND a.kind = 'wallet' GROUP BY p.username`,
  );
  const balance = new Map(wallets.rows.map((r) => [r.username, Number(r.balance)]));
  const told$ = new Map<string, number>();
  for (const p of players) {
    const moved = (p.cashedOutCents ?? Number.NaN) - p.cashedInCents;
    told$.set(p.seat.username, (told$.get(p.seat.username) ?? FLOOR_DEPOSIT_CENTS) + moved);
  }
  const wrong = [...told$].filter(([name, cents]) => balance.get(name) !== cents);
  lines.push(`wallets: ${told$.size - wrong.length} of ${told$.size} equal the deposit − cash ins + cash outs the players were told${wrong.length ? ` (first: ${wrong[0]![0]} ${balance.get(wrong[0]![0])} ≠ ${wrong[0]![1]})` : ''}`);
  if (wrong.length) problems.push('wallets');
  const open = (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM slot_sessions WHERE status <> 'closed'")).rows[0]!.n;
  lines.push(`open sessions left: ${open}`);
  if (open) problems.push('open sessions');
  return { ok: problems.length === 0, lines: problems.length ? [...lines, `audit problems: ${problems.join(', ')}`] : lines };
}
