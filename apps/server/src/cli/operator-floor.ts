/** The operator's floor and books: brands and machines, the player and machine lists, the ledger audit, the malfunctions. */
import { Option, type Command } from 'commander';
import {
  addBrand,
  addMachine,
  auditCommand,
  currency,
  formatGroupedCents,
  formatTable,
  listMachines,
  listPlayers,
  malfunctionsCommand,
} from './operator-commands.js';
import { action, amountOption, money, out } from './operator-kit.js';

export function addFloorCommands(program: Command): void {
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
      "check the ledger: entries sum to zero, operations balance, stored balances match, none negative, and every player's wallet + credits on machines follow from deposits, promotions, jackpots and the recorded game results",
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
            {
              check: 'players whose money does not follow from the game records',
              value: audit.players.length,
              expected: 0,
            },
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
          out(
            `${audit.malfunctions} malfunction(s) on record, each settled from the game records: npm run operator -- malfunctions`,
          );
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
}
