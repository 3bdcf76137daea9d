/**
 * The planted world of the checker's unit tests: one player, Ann, on machine 1, with a history and
 * the state a correct product would hold after it. Each test changes it (a planted violation) and
 * runs the checker.
 */
import { check } from './checker.js';
import { emptyParts, zeroMeters, type Baseline, type History, type LedgerOp, type Observed, type Parts } from './history.js';

export const parts = (p: Partial<Parts>): Parts => ({ ...emptyParts(), ...p });
export const op = (id: number, kind: string, key: string | null, amountCents: number, p: Partial<Parts>): LedgerOp => ({
  id,
  kind,
  player: 'ann',
  key,
  amountCents,
  sessionId: 'S1',
  machineId: 1,
  atMs: id,
  parts: parts(p),
});
export const game = (gameId: string, commandId: string | null, betCents: number, winCents: number) => ({
  machineId: 1,
  player: 'ann',
  sessionId: 'S1',
  gameId,
  startedMs: Number(gameId.slice(2)),
  recordedMs: Number(gameId.slice(2)),
  commandId,
  betCents,
  winCents,
  freeSpin: false,
  jackpotHit: false,
});

/**
 * Ann on machine 1: a bonus, a cash in drawing it and cash, a spin sent twice, an autoplay game,
 * a cash out she was told about, an operator deposit, an unanswered cash in that never happened,
 * one that did, a game she never saw, and the closing cash out she never saw either.
 */
function world(): { history: History; baseline: Baseline; observed: Observed } {
  const history: History = {
    players: [{ username: 'ann', machineId: 1 }],
    damaged: null,
    ops: [
      { type: 'promotion', player: 'ann', kind: 'bonus', key: 'b1', outcome: 'ok', amountCents: 1_000, sentAt: 1 },
      { type: 'cashIn', player: 'ann', key: 'k1', amountCents: 3_000, outcome: 'ok', sends: 1, sentAt: 2 },
      { type: 'spin', player: 'ann', commandId: 's1', outcome: 'ok', sends: 2, sentAt: 3, ackedAt: 4 },
      { type: 'cycle', player: 'ann', machineId: 1, gameId: '1-1', commandId: 's1', betCents: 100, winCents: 0, freeSpin: false, jackpotHit: false, at: 4 },
      { type: 'autoplay', player: 'ann', on: true, outcome: 'ok', sentAt: 5 },
      { type: 'cycle', player: 'ann', machineId: 1, gameId: '1-2', betCents: 100, winCents: 500, freeSpin: false, jackpotHit: false, at: 6 },
      { type: 'cashOut', player: 'ann', amountCents: 3_300, at: 7 },
      { type: 'cashier', player: 'ann', direction: 'deposit', key: 'd1', amountCents: 5_000, outcome: 'ok', sentAt: 8 },
      { type: 'cashIn', player: 'ann', key: 'k2', amountCents: 1_000, outcome: 'unknown', sends: 3, sentAt: 9 },
      { type: 'cashIn', player: 'ann', key: 'k3', amountCents: 2_000, outcome: 'unknown', sends: 1, sentAt: 10 },
      { type: 'promotion', player: 'ann', kind: 'discount', key: 'p2', outcome: 'refused', sentAt: 11 },
    ],
  };
  const baseline: Baseline = { wallets: { ann: parts({ cash: 10_000 }) }, memories: { 1: null }, lastOperationId: 100 };
  const observed: Observed = {
    wallets: { ann: parts({ cash: 16_200 }) },
    ledger: [
      op(101, 'bonus', 'b1', 1_000, { bonus: 1_000 }),
      op(102, 'cash_in', 'cashin:k1', 3_000, { bonus: -1_000, cash: -2_000 }),
      op(103, 'cash_out', 'co-S1-1:wagered', 3_300, { cash: 3_300 }),
      op(104, 'deposit', 'd1', 5_000, { cash: 5_000 }),
      op(105, 'cash_in', 'cashin:k3', 2_000, { cash: -2_000 }),
      op(106, 'cash_out', 'co-S1-2', 1_900, { cash: 1_900 }),
    ],
    records: [game('1-1', 's1', 100, 0), game('1-2', null, 100, 500), game('1-3', null, 100, 0)],
    payouts: [
      { machineId: 1, player: 'ann', commandId: 'co-S1-1', type: 'cash_out', status: 'done', amountCents: 3_300 },
      { machineId: 1, player: 'ann', commandId: 'co-S1-2', type: 'cash_out', status: 'done', amountCents: 1_900 },
    ],
    memories: {
      1: { memoryId: 'm', unackedGameIds: [], meters: { ...zeroMeters(), cashInCents: 5_000, coinInCents: 300, coinOutCents: 500, cashOutCents: 5_200, gamesPlayed: 3 } },
    },
    malfunctions: [],
    handPays: [],
    books: [],
  };
  return { history, baseline, observed };
}

export type World = ReturnType<typeof world>;

export function verdict(plant: (w: World) => void = () => {}) {
  const w = world();
  plant(w);
  return check(w.history, w.baseline, w.observed);
}

