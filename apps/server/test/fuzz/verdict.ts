/**
 * What must hold after a fuzz run besides the answers themselves: every socket meant to get past
 * its handshake did (else the fuzzing stayed at the door), the ledger balances, and every player's
 * money follows the game records (the operator's `audit`). Adds a failure to the report for each miss.
 */
import type { Queryable } from '../../src/db/pool.js';
import { auditLedger } from '../../src/modules/ledger/ledger.js';
import { auditPlayers } from '../../src/modules/ledger/player-audit.js';
import type { FuzzReport } from './report.js';

export async function judgeAfterRun(db: Queryable, report: FuzzReport): Promise<void> {
  for (const [channel, { planned, joined }] of report.joins)
    if (joined < planned) report.failures.push(`${channel}: only ${joined} of ${planned} sockets got past the handshake`);
  const ledger = await auditLedger(db);
  if (!ledger.ok) report.failures.push(`the ledger no longer balances: ${JSON.stringify(ledger)}`);
  const players = await auditPlayers(db);
  if (!players.ok) report.failures.push(`players' money does not follow the game records: ${JSON.stringify(players.mismatched)}`);
}
