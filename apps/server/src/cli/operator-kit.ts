/** What every operator command shares: printing, the database opened on first use, the exit code. */
import { loadConfig } from '../config.js';
import type { Db } from '../db/pool.js';
import { currency, formatGroupedCents, parseAmountCents } from './operator-commands.js';
import { openOperatorDatabase, type OperatorDatabase } from './operator-database.js';

export const out = (line: string) => process.stdout.write(`${line}\n`);
export const money = (amountCents: number) => `${formatGroupedCents(amountCents)} ${currency}`;

let opened: Promise<OperatorDatabase> | undefined;
const database = () => (opened ??= openOperatorDatabase(loadConfig()));

/** The exit code a command asked for (audit: 1 when not ok); failures are handled in runOperator. */
let commandExitCode = 0;

/** Wraps a command: opens the database on first use and keeps the exit code the command returns. */
export function action<A extends unknown[]>(work: (db: Db, ...args: A) => Promise<void | number>) {
  return async (...args: A) => {
    const { db } = await database();
    const code = await work(db, ...args);
    if (typeof code === 'number') commandExitCode = code;
  };
}

export function amountOption(text: string, options: { cents?: boolean }) {
  return parseAmountCents(text, { cents: options.cents });
}

/** Before a run: no exit code asked for yet. */
export function resetExitCode(): void {
  commandExitCode = 0;
}

export function requestedExitCode(): number {
  return commandExitCode;
}

/** After a run: closes the database if a command opened it (and the embedded one it started). */
export async function closeDatabase(): Promise<void> {
  if (opened) await (await opened.catch(() => undefined))?.close();
  opened = undefined;
}
