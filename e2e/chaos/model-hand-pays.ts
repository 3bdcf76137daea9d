/**
 * The checker's model of hand pays (issue 27): a win at or above the run's HAND_PAY_LIMIT is held by
 * the house, off the machine, until staff approve it through the console.
 *
 * From the games (records the client's view agrees with, model.ts) the model knows which wins must
 * be held and for how much; from the operator's approvals (what the console answered) whether each
 * was paid: an approval acknowledged as paid means paid exactly once, one without an answer at most
 * once, none (or only refused ones, or a first signature) not at all. The machine is locked from the
 * winning game until the payment: no game starts and no cash in is booked on it in between.
 */
import type { GameRecord, HandPayRow, History, HistoryOp, LedgerOp, Observed } from './history.js';

type Approval = Extract<HistoryOp, { type: 'handPayApproval' }>;
const cents = (n: number) => (n / 100).toFixed(2);
/** The bonus round a game belongs to: its paid game's id (`4-16` for `4-16` and `4-16-f3`). */
const roundOf = (gameId: string) => gameId.replace(/-f\d+$/, '');

interface HandPayModel {
  /** What the model says the house held off the player's cash outs (the winning games' wins). */
  heldCents: number;
  /** What the model says the approvals paid to the wallet's cash part. */
  paidCents: number;
}

interface Checked {
  violations: string[];
  explained: Set<number>;
}

/**
 * The wins at or above the limit of one bonus round are one hand pay row holding their sum (a free
 * spin that reaches the limit adds to the round's pending hand pay, docs/spec-decisions.md "Hand pay
 * and free spins"); no row without its games. Each row is matched with the round's first big game.
 */
function matchGames(c: Checked, player: string, big: GameRecord[], rows: HandPayRow[]): { game: GameRecord; row: HandPayRow }[] {
  const rounds = new Map<string, GameRecord[]>();
  for (const game of big) {
    const key = `${game.machineId}:${roundOf(game.gameId)}`;
    rounds.set(key, [...(rounds.get(key) ?? []), game]);
  }
  const unmatched = [...rows];
  const matched: { game: GameRecord; row: HandPayRow }[] = [];
  for (const games of rounds.values()) {
    const game = games[0]!;
    const winCents = games.reduce((sum, g) => sum + g.winCents, 0);
    const i = unmatched.findIndex((h) => h.machineId === game.machineId && h.amountCents === winCents && h.requestedMs >= game.startedMs);
    if (i < 0) {
      const which = games.map((g) => `${g.gameId} won ${cents(g.winCents)}`).join(', ');
      c.violations.push(`${player}: on machine ${game.machineId} game ${which}, at or above the hand pay limit, and no hand pay of ${cents(winCents)} holds it`);
      continue;
    }
    matched.push({ game, row: unmatched.splice(i, 1)[0]! });
  }
  for (const row of unmatched) c.violations.push(`${player}: hand pay ${row.id} of ${cents(row.amountCents)} on machine ${row.machineId} matches no game at or above the hand pay limit`);
  return matched;
}

/** How often the ledger paid a hand pay, against what its approvals were told; the amount the model credits. */
function payment(c: Checked, player: string, row: HandPayRow, approvals: Approval[], ledger: LedgerOp[]): number {
  const what = `${player}: hand pay ${row.id} of ${cents(row.amountCents)}`;
  const found = ledger.filter((o) => o.player === player && o.key === `hand-pay:${row.id}`);
  found.forEach((o) => c.explained.add(o.id));
  const acked = approvals.find((a) => a.outcome === 'ok' && a.paid);
  const unanswered = approvals.some((a) => a.outcome === 'unknown');
  if (acked && found.length !== 1) c.violations.push(`${what}, approved by ${acked.signer} and acknowledged as paid, was paid ${found.length} times`);
  else if (!acked && unanswered && found.length > 1) c.violations.push(`${what}, its approval unanswered, was paid ${found.length} times`);
  else if (!acked && !unanswered && found.length > 0) c.violations.push(`${what} was paid ${found.length} times with no approval that could have paid it`);
  for (const o of found)
    if (o.kind !== 'hand_pay' || o.amountCents !== row.amountCents || o.parts.cash !== row.amountCents)
      c.violations.push(`${what} is booked as ${o.kind} of ${cents(o.amountCents)} (cash ${cents(o.parts.cash)})`);
  if (found.length === 0 && row.status !== 'waiting') c.violations.push(`${what} is marked ${row.status} and the ledger never paid it`);
  if (found.length > 0 && row.status === 'waiting') c.violations.push(`${what} was paid and still waits in the queue`);
  // The run approves every hand pay before it ends: one still unpaid keeps its machine locked.
  if (found.length === 0) c.violations.push(`${what} was never paid (its machine stays locked)`);
  if (acked) return acked.amountCents;
  return found.length > 0 ? row.amountCents : 0;
}

/**
 * Nothing happens on the machine between the winning game and the payment, but the free spins of
 * the round the win came in: they play out first (docs/spec-decisions.md, "Hand pay and free spins").
 */
function locked(c: Checked, player: string, game: GameRecord, row: HandPayRow, observed: Observed) {
  const end = row.paidMs ?? Number.POSITIVE_INFINITY;
  // Games by the cabinet's clock (it starts none before the winning game is recorded and acknowledged);
  // cash ins by the database's, from the record on (one during the winning spin is the player's right).
  const lockedFrom = game.recordedMs;
  for (const g of observed.records)
    if (g.machineId === game.machineId && g.startedMs > game.startedMs && g.startedMs < end && roundOf(g.gameId) !== roundOf(game.gameId))
      c.violations.push(`${player}: machine ${game.machineId} played game ${g.gameId} while hand pay ${row.id} (game ${game.gameId}) waited`);
  for (const o of observed.ledger)
    if (o.kind === 'cash_in' && o.machineId === game.machineId && o.atMs > lockedFrom && o.atMs < end)
      c.violations.push(`${player}: machine ${game.machineId} took cash in ${o.key ?? o.id} of ${cents(o.amountCents)} while hand pay ${row.id} (game ${game.gameId}) waited`);
}

export function handPays(c: Checked, history: History, observed: Observed, player: string, machineId: number | undefined): HandPayModel {
  const limit = history.handPayLimitCents;
  const rows = observed.handPays.filter((h) => h.player === player);
  const big = limit === undefined ? [] : observed.records.filter((g) => g.player === player && g.machineId === machineId && g.winCents >= limit);
  const approvals = history.ops.filter((o): o is Approval => o.type === 'handPayApproval' && o.player === player);
  let paidCents = 0;
  for (const row of rows) paidCents += payment(c, player, row, approvals.filter((a) => a.handPayId === row.id), observed.ledger);
  for (const { game, row } of matchGames(c, player, big, rows)) locked(c, player, game, row, observed);
  return { heldCents: big.reduce((sum, g) => sum + g.winCents, 0), paidCents };
}
