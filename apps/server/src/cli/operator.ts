/**
 * Operator command line: `npm run operator -- <command> ...` (run with no command for help).
 * Uses DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR: the one a running
 * server already has open, or, when none is running, it starts the database itself and stops it
 * afterwards. Exit codes: 0 done, 1 refused or failed (message with its code), 2 bad usage.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Command, CommanderError, Option } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { createPool, type Db } from '../db/pool.js';
import { migrate } from '../db/migrate.js';
import { startEmbeddedPostgres } from '../db/embedded-postgres/embedded.js';
import { AppError } from '../lib/errors.js';
import {
  addBrand,
  addMachine,
  auditCommand,
  createPlayerCommand,
  currency,
  depositCommand,
  formatGroupedCents,
  formatTable,
  listMachines,
  listPlayers,
  malfunctionsCommand,
  parseAmountCents,
  resetPassword,
  setBanned,
  setAvatar,
  setPin,
  withdrawCommand,
  type CashierResult,
} from './operator-commands.js';

interface OperatorDatabase {
  db: Db;
  close(): Promise<void>;
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function openOperatorDatabase(config: Config): Promise<OperatorDatabase> {
  let url = config.databaseUrl;
  let stopEmbedded = async () => {};
  if (!url) {
    const dir = path.join(config.dataDir, 'pg');
    const portFile = `${dir}.port`;
    const port = fs.existsSync(portFile) ? Number(fs.readFileSync(portFile, 'utf8').trim()) : 0;
    const running = port > 0 && (await reachable(`postgres://postgres:postgres@127.0.0.1:${port}/postgres`));
    if (running) {
      url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    } else {
      const embedded = await startEmbeddedPostgres(dir, { port: config.embeddedPgPort || undefined });
      url = embedded.url;
      stopEmbedded = () => embedded.stop();
    }
  }
  const db = createPool(url, 4);
  try {
    // A database nobody has started the server on yet still gets the schema.
    await migrate(db);
  } catch (error) {
    await db.end().catch(() => {});
    await stopEmbedded().catch(() => {});
    throw error;
  }
  return {
    db,
    async close() {
      await db.end().catch(() => {});
      await stopEmbedded().catch(() => {});
    },
  };
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const money = (amountCents: number) => `${formatGroupedCents(amountCents)} ${currency}`;

let opened: Promise<OperatorDatabase> | undefined;
const database = () => (opened ??= openOperatorDatabase(loadConfig()));

/** The exit code a command asked for (audit: 1 when not ok); failures are handled in runOperator. */
let commandExitCode = 0;

/** Wraps a command: opens the database on first use and keeps the exit code the command returns. */
function action<A extends unknown[]>(work: (db: Db, ...args: A) => Promise<void | number>) {
  return async (...args: A) => {
    const { db } = await database();
    const code = await work(db, ...args);
    if (typeof code === 'number') commandExitCode = code;
  };
}

function amountOption(text: string, options: { cents?: boolean }) {
  return parseAmountCents(text, { cents: options.cents });
}

function printCashier(
  verb: string,
  username: string,
  amountCents: number,
  key: string,
  result: CashierResult,
) {
  if (result.move.replayed) {
    out(`Already done: operation #${result.move.operationId} with key ${key} (no money moved again).`);
  } else {
    out(
      `${verb} ${money(amountCents)} ${verb === 'Deposited' ? 'to' : 'from'} ${username}: operation #${result.move.operationId}, key ${key}.`,
    );
  }
  const w = result.wallet;
  out(
    `Balance of ${username}: ${money(w.balance)} (cash ${formatGroupedCents(w.cash)}, credit ${formatGroupedCents(w.credit)}, bonus ${formatGroupedCents(w.bonus)}, discount ${formatGroupedCents(w.discount)})`,
  );
}

export function buildProgram(): Command {
  const program = new Command('operator')
    .description('Reel Live operator tools. Amounts are in major units (50.00) unless --cents is given.')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('create-player')
    .description('create a player with an empty wallet')
    .argument('<username>')
    .requiredOption('--email <email>')
    .option('--password <password>', 'initial password (one is generated and printed when omitted)')
    .option('--name <name>', 'first name', '')
    .option('--lastname <lastname>', 'last name', '')
    .option('--pin <pin>', 'lock-screen PIN, 4 to 8 digits')
    .action(
      action(
        async (
          db,
          username: string,
          o: { email: string; password?: string; name: string; lastname: string; pin?: string },
        ) => {
          const { id, generatedPassword } = await createPlayerCommand(db, { username, ...o });
          out(`Created player ${username} (id ${id}).`);
          if (generatedPassword) out(`Password (shown once): ${generatedPassword}`);
        },
      ),
    );

  program
    .command('reset-password')
    .description("set a player's password, lift a sign-in block and sign the player out everywhere")
    .argument('<username>')
    .argument('<password>')
    .action(
      action(async (db, username: string, password: string) => {
        const { revokedTokens } = await resetPassword(db, username, password);
        out(`Password of ${username} changed; ${revokedTokens} session(s) signed out.`);
      }),
    );

  program
    .command('set-pin')
    .description("set a player's lock-screen PIN (4 to 8 digits)")
    .argument('<username>')
    .argument('<pin>')
    .action(
      action(async (db, username: string, pin: string) => {
        await setPin(db, username, pin);
        out(`PIN of ${username} set.`);
      }),
    );

  program
    .command('set-avatar')
    .description("set a player's avatar picture (an https URL or a path on the site); without a URL, clear it")
    .argument('<username>')
    .argument('[url]')
    .action(
      action(async (db, username: string, url?: string) => {
        await setAvatar(db, username, url);
        out(url ? `Avatar of ${username} set; it shows from their next sign-in or reload.` : `Avatar of ${username} cleared.`);
      }),
    );

  for (const [name, verb, run] of [
    ['deposit', 'Deposited', depositCommand],
    ['withdraw', 'Withdrew', withdrawCommand],
  ] as const) {
    program
      .command(name)
      .description(
        name === 'deposit'
          ? "put money into a player's cash balance (action code 1)"
          : "pay money out of a player's cash balance (action code 2)",
      )
      .argument('<username>')
      .argument('<amount>', 'e.g. 50.00, or cents with --cents')
      .option('--cents', 'the amount is in cents')
      .option(
        '--key <key>',
        'idempotency key: repeating the command with the same key moves money only once (default: random)',
      )
      .action(
        action(async (db, username: string, amount: string, o: { cents?: boolean; key?: string }) => {
          const amountCents = amountOption(amount, o);
          const key = o.key ?? `operator-${crypto.randomUUID()}`;
          printCashier(verb, username, amountCents, key, await run(db, username, amountCents, key));
        }),
      );
  }

  program
    .command('ban')
    .description('ban a player and sign them out everywhere')
    .argument('<username>')
    .action(
      action(async (db, username: string) => {
        const { revokedTokens } = await setBanned(db, username, true);
        out(`Banned ${username}; ${revokedTokens} session(s) signed out.`);
      }),
    );

  program
    .command('unban')
    .description('lift a ban')
    .argument('<username>')
    .action(
      action(async (db, username: string) => {
        await setBanned(db, username, false);
        out(`Unbanned ${username}.`);
      }),
    );

  program
    .command('add-brand')
    .description('add a brand group with its jackpot levels')
    .argument('<name>')
    .option(
      '--jackpots <amounts>',
      'comma-separated jackpot seeds, highest level first, e.g. 2500.00,500.00,100.00',
      '',
    )
    .option('--cents', 'the jackpot seeds are in cents')
    .option('--image <url>')
    .action(
      action(async (db, name: string, o: { jackpots: string; cents?: boolean; image?: string }) => {
        const jackpotSeedsCents = o.jackpots
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .map((s) => amountOption(s, o));
        const id = await addBrand(db, { name, image: o.image, jackpotSeedsCents });
        out(
          `Created brand ${name} (id ${id}) with jackpots ${jackpotSeedsCents.map(money).join(', ') || '(none)'}.`,
        );
      }),
    );

  program
    .command('add-machine')
    .description('add a machine to a brand; prints its agent key once')
    .argument('<brand>', 'brand name or id')
    .argument('<name>')
    .option('--image <url>')
    .addOption(new Option('--video-type <type>').choices(['screen', 'camera']).default('screen'))
    .option('--reservation', 'mark the machine as reserved')
    .option('--handpay-limit <amount>', 'wins at or above this are paid by hand (default 10,000.00)')
    .option('--cents', 'the hand-pay limit is in cents')
    .action(
      action(
        async (
          db,
          brand: string,
          name: string,
          o: {
            image?: string;
            videoType: 'screen' | 'camera';
            reservation?: boolean;
            handpayLimit?: string;
            cents?: boolean;
          },
        ) => {
          const { id, key } = await addMachine(db, {
            brand,
            name,
            image: o.image,
            videoType: o.videoType,
            reservation: Boolean(o.reservation),
            handpayLimitCents: o.handpayLimit === undefined ? undefined : amountOption(o.handpayLimit, o),
          });
          out(`Created machine ${name} (id ${id}).`);
          out(`Agent key (shown once, only its hash is stored): ${key}`);
        },
      ),
    );

  program
    .command('list-players')
    .description('players with their balances')
    .action(
      action(async (db) => {
        const rows = await listPlayers(db);
        out(
          formatTable(
            rows.map((r) => ({
              id: r.id,
              username: r.username,
              email: r.email,
              name: r.name,
              status: r.banned ? 'banned' : r.blocked ? 'blocked' : 'active',
              balance: formatGroupedCents(r.balance),
              cash: formatGroupedCents(r.cash),
              credit: formatGroupedCents(r.credit),
              bonus: formatGroupedCents(r.bonus),
              discount: formatGroupedCents(r.discount),
            })),
          ),
        );
        out(`${rows.length} player(s); amounts in ${currency}.`);
      }),
    );

  program
    .command('list-machines')
    .description('machines with their brand, state and credits')
    .action(
      action(async (db) => {
        const rows = await listMachines(db);
        out(
          formatTable(
            rows.map((r) => ({
              id: r.id,
              brand: r.brand,
              name: r.name,
              state: r.state,
              enabled: r.enabled ? 'yes' : 'no',
              reserved: r.reservation ? 'yes' : 'no',
              video: r.video,
              credits: formatGroupedCents(r.credits),
            })),
          ),
        );
        out(`${rows.length} machine(s).`);
      }),
    );

  program
    .command('audit')
    .description(
      'check the ledger: entries sum to zero, operations balance, stored balances match, none negative, and every player\'s wallet + credits on machines follow from deposits, promotions, jackpots and the recorded game results',
    )
    .action(
      action(async (db) => {
        const audit = await auditCommand(db);
        out(
          formatTable([
            { check: 'sum of all entries (cents)', value: audit.total, expected: 0 },
            { check: 'unbalanced operations', value: audit.unbalanced, expected: 0 },
            { check: 'balances differing from entries', value: audit.drifted, expected: 0 },
            { check: 'negative balances', value: audit.negative, expected: 0 },
            { check: 'players whose money does not follow from the game records', value: audit.players.length, expected: 0 },
          ]),
        );
        if (audit.players.length) {
          out(
            formatTable(
              audit.players.map((p) => ({
                player: p.username,
                wallet: formatGroupedCents(p.walletCents),
                'on machines': formatGroupedCents(p.onMachinesCents),
                'by the records': formatGroupedCents(p.expectedCents),
                difference: formatGroupedCents(p.walletCents + p.onMachinesCents - p.expectedCents),
              })),
            ),
          );
        }
        out(audit.ok ? 'Ledger OK.' : 'LEDGER NOT OK.');
        if (audit.malfunctions > 0)
          out(`${audit.malfunctions} malfunction(s) on record, each settled from the game records: npm run operator -- malfunctions`);
        return audit.ok ? 0 : 1;
      }),
    );

  program
    .command('malfunctions')
    .description(
      'machine malfunctions, newest first: the session, the credits the records give and the machine showed, what was paid (and how much of it by the house above the records), and the games involved',
    )
    .option('--limit <n>', 'how many to show', '50')
    .action(
      action(async (db, o: { limit: string }) => {
        const rows = await malfunctionsCommand(db, o.limit);
        if (!rows.length) {
          out('No malfunctions on record.');
          return;
        }
        out(formatTable(rows));
        out(`${rows.length} malfunction(s) shown; amounts in ${currency}.`);
      }),
    );

  return program;
}

export async function runOperator(argv: string[]): Promise<number> {
  const program = buildProgram();
  commandExitCode = 0;
  try {
    if (argv.length <= 2) {
      program.outputHelp();
      return 2;
    }
    await program.parseAsync(argv);
    return commandExitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed the usage message.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof AppError) {
      process.stderr.write(`Error ${error.code}: ${error.message}\n`);
      return 1;
    }
    // Unexpected (e.g. the database cannot be reached): the message, never a stack trace.
    process.stderr.write(`Error: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  } finally {
    if (opened) await (await opened.catch(() => undefined))?.close();
    opened = undefined;
  }
}

const invokedDirectly =
  process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (invokedDirectly) {
  const code = await runOperator(process.argv);
  // Explicit, so an open handle (a pool, a socket) cannot keep the process or change its code.
  process.exit(code);
}
