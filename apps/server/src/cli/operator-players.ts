/** The operator's player commands: accounts, sign-in, cashier (deposit, withdraw), bans. */
import crypto from 'node:crypto';
import type { Command } from 'commander';
import {
  createPlayerCommand,
  depositCommand,
  formatGroupedCents,
  resetPassword,
  setAvatar,
  setBanned,
  setPin,
  withdrawCommand,
} from './operator-commands.js';
import type { CashierResult } from '../modules/admin/player-actions.js';
import { action, amountOption, money, out } from './operator-kit.js';

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

export function addPlayerCommands(program: Command): void {
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
    .option('--reason <text>', 'why: written to the audit trail')
    .action(
      action(async (db, username: string, password: string, o: { reason?: string }) => {
        const { revokedTokens } = await resetPassword(db, username, password, o.reason);
        out(`Password of ${username} changed; ${revokedTokens} session(s) signed out.`);
      }),
    );

  program
    .command('set-pin')
    .description("set a player's lock-screen PIN (4 to 8 digits)")
    .argument('<username>')
    .argument('<pin>')
    .option('--reason <text>', 'why: written to the audit trail')
    .action(
      action(async (db, username: string, pin: string, o: { reason?: string }) => {
        await setPin(db, username, pin, o.reason);
        out(`PIN of ${username} set.`);
      }),
    );

  program
    .command('set-avatar')
    .description(
      "set a player's avatar picture (an https URL or a path on the site); without a URL, clear it",
    )
    .argument('<username>')
    .argument('[url]')
    .action(
      action(async (db, username: string, url?: string) => {
        await setAvatar(db, username, url);
        out(
          url
            ? `Avatar of ${username} set; it shows from their next sign-in or reload.`
            : `Avatar of ${username} cleared.`,
        );
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
      .option('--reason <text>', 'why: written to the audit trail')
      .action(
        action(async (db, username: string, amount: string, o: { cents?: boolean; key?: string; reason?: string }) => {
          const amountCents = amountOption(amount, o);
          const key = o.key ?? `operator-${crypto.randomUUID()}`;
          printCashier(verb, username, amountCents, key, await run(db, username, amountCents, key, o.reason));
        }),
      );
  }

  program
    .command('ban')
    .description('ban a player and sign them out everywhere')
    .argument('<username>')
    .option('--reason <text>', 'why: written to the audit trail')
    .action(
      action(async (db, username: string, o: { reason?: string }) => {
        const { revokedTokens } = await setBanned(db, username, true, o.reason);
        out(`Banned ${username}; ${revokedTokens} session(s) signed out.`);
      }),
    );

  program
    .command('unban')
    .description('lift a ban')
    .argument('<username>')
    .option('--reason <text>', 'why: written to the audit trail')
    .action(
      action(async (db, username: string, o: { reason?: string }) => {
        await setBanned(db, username, false, o.reason);
        out(`Unbanned ${username}.`);
      }),
    );
}
