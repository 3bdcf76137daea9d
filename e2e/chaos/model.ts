/**
 * The checker's own model of one player's money, built from what the client was told.
 *
 * An acknowledged operation must be in the ledger exactly once, with the amount the client was
 * told; a refused one not at all; an unacknowledged one at most once, and whether it happened is
 * resolved from the ledger by its idempotency key (the only thing taken from the ledger: never the
 * amount of an acknowledged operation, never whether an acknowledged one happened). Games the
 * client saw must be in the records with the values it saw; games it did not see (a kill between
 * the game and its report to the client) are taken from the records, once each.
 *
 * From that the model replays the wallet's parts (a cash in draws discount, bonus, credit, then
 * cash; promotions credit their part; deposits, withdrawals, cash outs and jackpots move cash) and
 * the machine's meters, to the cent.
 */
import { handPays } from './model-hand-pays.js';
import { SPEND_ORDER, emptyParts, type GameRecord, type History, type HistoryOp, type LedgerOp, type Meters, type Observed, type Outcome, type Parts } from './history.js';

interface PlayerModel {
  wallet: Parts;
  /** What the player's cash ins, games and cash outs did to the machine's meters (deltas). */
  meters: Meters;
  violations: string[];
}

type OpOf<T extends HistoryOp['type']> = Extract<HistoryOp, { type: T }>;
const cents = (n: number) => (n / 100).toFixed(2);
const partsText = (p: Partial<Parts>) =>
  SPEND_ORDER.filter((k) => (p[k] ?? 0) !== 0)
    .map((k) => `${k} ${cents(p[k]!)}`)
    .join(', ') || 'nothing';

/** The ledger's operations by player and idempotency key. */
export function indexLedger(ledger: LedgerOp[]): Map<string, LedgerOp[]> {
  const index = new Map<string, LedgerOp[]>();
  for (const op of ledger) {
    if (op.key === null) continue;
    const id = `${op.player}\u0000${op.key}`;
    index.set(id, [...(index.get(id) ?? []), op]);
  }
  return index;
}

interface Resolver {
  ledger: Map<string, LedgerOp[]>;
  violations: string[];
  /** Ledger operation ids the history explains. */
  explained: Set<number>;
}

/**
 * The ledger's operation for a key, checked against what the client was told: null when it did
 * not happen. The caller applies an acknowledged operation even when it is missing here.
 */
function resolve(r: Resolver, player: string, key: string, outcome: Outcome, what: string): LedgerOp | null {
  const found = r.ledger.get(`${player}\u0000${key}`) ?? [];
  for (const op of found) r.explained.add(op.id);
  if (outcome === 'ok' && found.length !== 1) r.violations.push(`${player}: acknowledged ${what} happened ${found.length} times`);
  if (outcome === 'unknown' && found.length > 1) r.violations.push(`${player}: unacknowledged ${what} happened ${found.length} times`);
  if (outcome === 'refused' && found.length > 0) r.violations.push(`${player}: refused ${what} happened ${found.length} times`);
  return outcome === 'refused' ? null : (found[0] ?? null);
}

/** A move of the wallet in ledger order (the wallet's rows are locked for each, so ids follow the commits). */
interface WalletEvent {
  order: number;
  apply(wallet: Parts): void;
}

function draw(wallet: Parts, amountCents: number): Parts {
  const drawn = emptyParts();
  let remaining = amountCents;
  for (const part of SPEND_ORDER) {
    const take = part === 'cash' ? remaining : Math.min(Math.max(0, wallet[part]), remaining);
    drawn[part] = take;
    remaining -= take;
  }
  return drawn;
}

const sameParts = (a: Partial<Parts>, b: Partial<Parts>) => SPEND_ORDER.every((p) => (a[p] ?? 0) === (b[p] ?? 0));
const negate = (p: Parts): Parts => ({ cash: -p.cash, credit: -p.credit, bonus: -p.bonus, discount: -p.discount });

/** Cash ins: each resolved one draws the wallet; refunds (the machine refused the credit) give the draw back. */
function cashIns(r: Resolver, player: string, ops: OpOf<'cashIn'>[], all: LedgerOp[], events: WalletEvent[]): number {
  let credited = 0;
  for (const op of ops) {
    const what = `cash in ${op.key} of ${cents(op.amountCents)}`;
    const booked = resolve(r, player, `cashin:${op.key}`, op.outcome, what);
    // Acknowledged: it happened, whatever the ledger says (a missing one is a violation above).
    if (!booked && op.outcome !== 'ok') continue;
    if (booked && (booked.kind !== 'cash_in' || booked.amountCents !== op.amountCents))
      r.violations.push(`${player}: ${what} is booked as ${booked.kind} of ${cents(booked.amountCents)}`);
    const refunds = booked ? all.filter((o) => o.player === player && o.key !== null && (o.key === `refund:ci-${booked.id}` || o.key.startsWith(`refund:ci-${booked.id}:`))) : [];
    refunds.forEach((o) => r.explained.add(o.id));
    const refunded = refunds.reduce((sum, o) => sum + o.amountCents, 0);
    credited += op.amountCents - refunded;
    let drawn = emptyParts();
    events.push({
      order: booked?.id ?? Number.MAX_SAFE_INTEGER,
      apply(wallet) {
        drawn = draw(wallet, op.amountCents);
        if (booked && !sameParts(negate(drawn), booked.parts))
          r.violations.push(`${player}: ${what} took ${partsText(negate(booked.parts))} from the wallet; the model says ${partsText(drawn)}`);
        for (const part of SPEND_ORDER) wallet[part] -= drawn[part];
      },
    });
    for (const refund of refunds)
      events.push({
        order: refund.id,
        apply(wallet) {
          for (const part of SPEND_ORDER) {
            if (refund.parts[part] > drawn[part]) r.violations.push(`${player}: refund ${refund.key} gave ${part} ${cents(refund.parts[part])} back, the cash in took ${cents(drawn[part])}`);
            wallet[part] += refund.parts[part];
          }
        },
      });
  }
  return credited;
}

function promotions(r: Resolver, player: string, ops: OpOf<'promotion'>[], events: WalletEvent[]) {
  for (const op of ops) {
    const what = `${op.kind} ${op.key}`;
    const booked = resolve(r, player, op.key, op.outcome, what);
    if (!booked && op.outcome !== 'ok') continue;
    const amount = op.outcome === 'ok' ? (op.amountCents ?? 0) : booked!.amountCents;
    if (booked && (booked.kind !== op.kind || booked.amountCents !== amount || booked.parts[op.kind] !== amount))
      r.violations.push(`${player}: ${what} of ${cents(amount)} is booked as ${booked.kind} of ${cents(booked.amountCents)} (${partsText(booked.parts)})`);
    events.push({ order: booked?.id ?? Number.MAX_SAFE_INTEGER, apply: (wallet) => void (wallet[op.kind] += amount) });
  }
}

function cashier(r: Resolver, player: string, ops: OpOf<'cashier'>[], wallet: Parts) {
  for (const op of ops) {
    const what = `operator ${op.direction} ${op.key} of ${cents(op.amountCents)}`;
    const booked = resolve(r, player, op.key, op.outcome, what);
    if (!booked && op.outcome !== 'ok') continue;
    if (booked && (booked.kind !== op.direction || booked.amountCents !== op.amountCents))
      r.violations.push(`${player}: ${what} is booked as ${booked.kind} of ${cents(booked.amountCents)}`);
    wallet.cash += op.direction === 'deposit' ? op.amountCents : -op.amountCents;
  }
}

/** The games: every one the client saw is recorded once with what it saw; every acknowledged spin is one game. */
function games(r: Resolver, player: string, ops: HistoryOp[], records: GameRecord[], damagedMachine: number | null) {
  for (const seen of ops.filter((o): o is OpOf<'cycle'> => o.type === 'cycle')) {
    const found = records.filter((g) => g.machineId === seen.machineId && g.gameId === seen.gameId);
    // A memory deleted on purpose starts counting games again: its game ids repeat.
    const matching = found.filter((g) => g.betCents === seen.betCents && g.winCents === seen.winCents && g.freeSpin === seen.freeSpin && g.jackpotHit === seen.jackpotHit);
    if (seen.machineId === damagedMachine ? matching.length === 0 : found.length !== 1 || matching.length !== 1)
      r.violations.push(
        `${player}: game ${seen.gameId} (bet ${cents(seen.betCents)}, win ${cents(seen.winCents)}) that the client was told about is recorded ${found.length} times` +
          (found.length ? `: ${found.map((g) => `bet ${cents(g.betCents)} win ${cents(g.winCents)}`).join('; ')}` : ''),
      );
  }
  for (const spin of ops.filter((o): o is OpOf<'spin'> => o.type === 'spin')) {
    const n = records.filter((g) => g.commandId === spin.commandId).length;
    const sent = spin.sends > 1 ? ` (sent ${spin.sends} times)` : '';
    if (spin.outcome === 'ok' && n !== 1) r.violations.push(`${player}: acknowledged spin ${spin.commandId}${sent} is ${n} games`);
    if (spin.outcome !== 'ok' && n > 1) r.violations.push(`${player}: unacknowledged spin ${spin.commandId}${sent} is ${n} games`);
  }
}

/** Each jackpot game of the player's sessions is paid once; no jackpot without its game. */
function jackpots(r: Resolver, player: string, records: GameRecord[], ledger: LedgerOp[]): number {
  let paid = 0;
  for (const game of records.filter((g) => g.player === player && g.jackpotHit && g.sessionId)) {
    const key = `jackpot:${game.machineId}:${game.gameId}:${game.sessionId}`;
    const found = ledger.filter((o) => o.player === player && o.key === key);
    found.forEach((o) => r.explained.add(o.id));
    if (found.length !== 1) r.violations.push(`${player}: jackpot game ${game.gameId} on machine ${game.machineId} was paid ${found.length} times`);
    paid += found.reduce((sum, o) => sum + o.amountCents, 0);
  }
  return paid;
}

/**
 * Cash outs: what the machine paid must be what the model says was on it (cash ins credited +
 * wins − bets), every cash out the client was told about is one the machine paid, and all of it
 * reached the wallet.
 */
function cashOuts(r: Resolver, player: string, ops: HistoryOp[], observed: Observed, expectedCents: number, heldCents: number, damaged: boolean) {
  const paidByMachine = observed.payouts.filter((c) => c.player === player && c.status === 'done');
  // Approved hand pays (`hand-pay:<id>`) are the hand pay model's (model-hand-pays.ts).
  const toWallet = observed.ledger.filter((o) => o.player === player && (o.kind === 'cash_out' || o.kind === 'hand_pay') && !o.key?.startsWith('refund:') && !o.key?.startsWith('hand-pay:'));
  // A malfunction settles the session from the records (`malfunction:<session>[:part]`) and tells
  // the player as a cash out too.
  const settlements = new Map<string, number>();
  for (const o of toWallet) {
    const session = o.key?.match(/^malfunction:([^:]+)/)?.[1];
    if (session) settlements.set(session, (settlements.get(session) ?? 0) + o.amountCents);
  }
  const unmatched = [...paidByMachine.map((c) => c.amountCents ?? 0), ...settlements.values()];
  for (const told of ops.filter((o): o is OpOf<'cashOut'> => o.type === 'cashOut')) {
    const i = unmatched.indexOf(told.amountCents);
    if (i < 0) r.violations.push(`${player}: acknowledged cash out of ${cents(told.amountCents)} is not among the machine's cash outs and settlements`);
    else unmatched.splice(i, 1);
  }
  toWallet.forEach((o) => r.explained.add(o.id));
  const machinePaid = paidByMachine.reduce((sum, c) => sum + (c.amountCents ?? 0), 0);
  const walletGot = toWallet.reduce((sum, o) => sum + o.amountCents, 0);
  // A memory deleted on purpose is settled from the records (a hand pay no machine command paid).
  if (damaged) {
    if (walletGot !== expectedCents) r.violations.push(`${player}: cash outs and settlements booked ${cents(walletGot)} to the wallet; the model says ${cents(expectedCents)}`);
    return;
  }
  if (machinePaid !== expectedCents)
    r.violations.push(`${player}: the machine paid ${cents(machinePaid)} in cash outs; the model says ${cents(expectedCents)} (cash ins, wins and bets)`);
  // A win held for a hand pay came off the machine and went to the house, not to the wallet.
  if (walletGot !== machinePaid - heldCents)
    r.violations.push(
      `${player}: cash outs booked ${cents(walletGot)} to the wallet, the machine paid ${cents(machinePaid)}` + (heldCents ? ` of which hand pays held ${cents(heldCents)}` : ''),
    );
}

/** The model of one player (who plays one machine) after the whole history. */
export function modelPlayer(history: History, observed: Observed, start: Parts, player: string, ledgerIndex = indexLedger(observed.ledger)): PlayerModel & { explained: Set<number> } {
  const r: Resolver = { ledger: ledgerIndex, violations: [], explained: new Set() };
  const ops = history.ops.filter((o) => o.player === player);
  const machineId = history.players.find((p) => p.username === player)?.machineId;
  const damaged = history.damaged && history.damaged.machineId === machineId ? history.damaged.machineId : null;
  const wallet = { ...start };
  const events: WalletEvent[] = [];
  const credited = cashIns(r, player, ops.filter((o): o is OpOf<'cashIn'> => o.type === 'cashIn'), observed.ledger, events);
  promotions(r, player, ops.filter((o): o is OpOf<'promotion'> => o.type === 'promotion'), events);
  for (const event of events.sort((a, b) => a.order - b.order)) event.apply(wallet);
  cashier(r, player, ops.filter((o): o is OpOf<'cashier'> => o.type === 'cashier'), wallet);
  games(r, player, ops, observed.records, damaged);
  wallet.cash += jackpots(r, player, observed.records, observed.ledger);

  const played = observed.records.filter((g) => g.player === player);
  const results = played.reduce((sum, g) => sum + g.winCents - g.betCents, 0);
  // A settlement from the records after a memory deleted on purpose pays what the meter showed above them.
  const adjustments = observed.ledger.filter((o) => o.kind === 'malfunction_adjustment' && damaged !== null && o.machineId === damaged);
  adjustments.forEach((o) => r.explained.add(o.id));
  const expectedPayout = credited + results + adjustments.reduce((sum, o) => sum + o.amountCents, 0);
  const handPay = damaged === null ? handPays(r, history, observed, player, machineId) : { heldCents: 0, paidCents: 0 };
  cashOuts(r, player, ops, observed, expectedPayout, handPay.heldCents, damaged !== null);
  wallet.cash += expectedPayout - handPay.heldCents + handPay.paidCents;

  // The machine's meters, from the model: what was credited, the games, what the model says it paid.
  const onMachine = observed.records.filter((g) => g.machineId === machineId);
  const meters: Meters = {
    creditsCents: credited + results - expectedPayout,
    coinInCents: onMachine.reduce((sum, g) => sum + g.betCents, 0),
    coinOutCents: onMachine.reduce((sum, g) => sum + g.winCents, 0),
    cashInCents: credited,
    cashOutCents: expectedPayout,
    gamesPlayed: onMachine.filter((g) => !g.freeSpin).length,
  };
  return { wallet, meters, violations: r.violations, explained: r.explained };
}

export { cents };
