/**
 * The fault suite's verdict: the model (model.ts, with its hand pays in model-hand-pays.ts) of every
 * player against what the product holds after the run, to the cent, and the players' own limits
 * (model-limits.ts): every wallet part, every cabinet's critical memory (its meters, and
 * no game the records miss), the game records (no spin command twice), the ledger (no operation
 * that no client operation explains) and the books' own invariants. Malfunctions are violations,
 * except on a machine whose memory the run deleted on purpose, from that moment on.
 * A pure function of the history and the observed state: checker.test.ts plants violations in it.
 */
import { METER_NAMES, SPEND_ORDER, type Baseline, type History, type Meters, type Observed } from './history.js';
import { cents, indexLedger, modelPlayer } from './model.js';
import { limitViolations } from './model-limits.js';

interface Verdict {
  violations: string[];
  /** Malfunction settlements, expected (a deleted memory) or not. */
  malfunctions: number;
  /** Cents the model accounted for: every wallet part and meter it compared. */
  centsChecked: number;
}

const MONEY_KINDS_FROM_CLIENTS = new Set(['cash_in', 'bonus', 'discount', 'deposit', 'withdraw', 'jackpot', 'cash_out', 'hand_pay', 'malfunction_adjustment']);

function checkMeters(machineId: number, expected: Meters, observed: Observed, violations: string[]): number {
  const memory = observed.memories[machineId];
  if (!memory) {
    violations.push(`machine ${machineId}: its critical memory cannot be read`);
    return 0;
  }
  let checked = 0;
  for (const name of METER_NAMES) {
    checked += Math.abs(memory.meters[name]);
    if (memory.meters[name] !== expected[name])
      violations.push(`machine ${machineId}: meter ${name} is ${memory.meters[name]}, the model says ${expected[name]} (off by ${memory.meters[name] - expected[name]})`);
  }
  const recorded = new Set(observed.records.filter((g) => g.machineId === machineId).map((g) => g.gameId));
  const missing = memory.unackedGameIds.filter((id) => !recorded.has(id));
  if (missing.length) violations.push(`machine ${machineId}: games played and missing from the records: ${missing.join(' ')}`);
  return checked;
}

function checkRecords(observed: Observed, violations: string[]) {
  const byCommand = new Map<string, number>();
  for (const g of observed.records) if (g.commandId) byCommand.set(`${g.player}:${g.commandId}`, (byCommand.get(`${g.player}:${g.commandId}`) ?? 0) + 1);
  for (const [command, n] of byCommand) if (n > 1) violations.push(`spin command ${command} produced ${n} games`);
  const byGame = new Map<string, number>();
  for (const g of observed.records) byGame.set(`${g.machineId}:${g.gameId}@${g.startedMs}`, (byGame.get(`${g.machineId}:${g.gameId}@${g.startedMs}`) ?? 0) + 1);
  for (const [game, n] of byGame) if (n > 1) violations.push(`game ${game} is recorded ${n} times`);
}

function checkMalfunctions(history: History, observed: Observed, violations: string[]) {
  const { damaged } = history;
  for (const m of observed.malfunctions) {
    if (damaged && m.machineId === damaged.machineId && m.at >= damaged.at) continue;
    violations.push(
      `malfunction ${m.id} on machine ${m.machineId} (session ${m.sessionId ?? 'none'}, ${m.reason}): records ${cents(m.recordsCents)}, machine ${cents(m.machineCents)}, paid ${m.paidCents === null ? 'nothing' : cents(m.paidCents)}` +
        (m.missingGames.length ? `, games missing from the records: ${m.missingGames.join(' ')}` : ''),
    );
  }
}

export function check(history: History, baseline: Baseline, observed: Observed): Verdict {
  const violations = [...observed.books];
  let centsChecked = 0;
  const ledgerIndex = indexLedger(observed.ledger);
  const explained = new Set<number>();
  for (const { username, machineId } of history.players) {
    const start = baseline.wallets[username];
    if (!start) {
      violations.push(`${username}: no wallet at the start`);
      continue;
    }
    const model = modelPlayer(history, observed, start, username, ledgerIndex);
    violations.push(...model.violations, ...limitViolations(history, observed, username));
    model.explained.forEach((id) => explained.add(id));
    const actual = observed.wallets[username];
    for (const part of SPEND_ORDER) {
      const have = actual?.[part] ?? 0;
      centsChecked += Math.abs(have);
      if (have !== model.wallet[part])
        violations.push(`${username}: wallet ${part} is ${cents(have)}, the model says ${cents(model.wallet[part])} (off by ${cents(have - model.wallet[part])})`);
    }
    if (history.damaged?.machineId === machineId) continue;
    const before = baseline.memories[machineId]?.meters;
    const expected = Object.fromEntries(METER_NAMES.map((n) => [n, (before?.[n] ?? 0) + model.meters[n]])) as unknown as Meters;
    centsChecked += checkMeters(machineId, expected, observed, violations);
  }
  const players = new Set(history.players.map((p) => p.username));
  for (const op of observed.ledger) {
    if (op.id <= baseline.lastOperationId || explained.has(op.id) || !MONEY_KINDS_FROM_CLIENTS.has(op.kind)) continue;
    if (op.player !== null && !players.has(op.player)) continue;
    violations.push(`ledger operation ${op.id} (${op.kind} of ${cents(op.amountCents)} for ${op.player ?? 'nobody'}, key ${op.key ?? 'none'}) is explained by no client operation`);
  }
  checkRecords(observed, violations);
  checkMalfunctions(history, observed, violations);
  return { violations, malfunctions: observed.malfunctions.length, centsChecked };
}
