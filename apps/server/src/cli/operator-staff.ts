/** The operator's console accounts and the audit trail's check: `create-staff`, `verify-audit`. */
import crypto from 'node:crypto';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { withTransaction, type Db } from '../db/pool.js';
import { appendAudit } from '../modules/audit/audit-log.js';
import { cliActor } from '../modules/audit/audit-actor.js';
import { loadAuditKey, readHeadWitness, witnessFileOf } from '../modules/audit/audit-signing.js';
import { verifyAudit } from '../modules/audit/audit-verify.js';
import { createOperator } from '../modules/operators/operators.js';
import { DEFAULT_CLI_REASON } from './operator-commands.js';
import { action, out } from './operator-kit.js';

/** Creates a console account and its audit row; a password is generated when none is given. */
async function createStaffCommand(db: Db, input: { username: string; role: string; password?: string; reason?: string }) {
  const password = input.password ?? crypto.randomBytes(12).toString('base64url');
  const operator = await withTransaction(db, async (tx) => {
    const created = await createOperator(tx, { username: input.username, password, role: input.role });
    await appendAudit(tx, {
      actor: cliActor(),
      action: 'operator.create',
      target: `operator:${created.id}`,
      before: null,
      after: { username: created.username, role: created.role, status: created.status },
      reason: input.reason?.trim() || DEFAULT_CLI_REASON,
    });
    return created;
  });
  return { operator, password };
}

export function addStaffCommands(program: Command): void {
  program
    .command('create-staff')
    .description('create an operator account for the console (/admin): role admin or staff; the account is printed once')
    .argument('<username>')
    .requiredOption('--role <role>', 'admin or staff')
    .option('--password <password>', 'at least 8 characters (one is generated when omitted)')
    .option('--reason <text>', 'why: written to the audit trail')
    .action(
      action(async (db, username: string, o: { role: string; password?: string; reason?: string }) => {
        const { operator, password } = await createStaffCommand(db, { username, ...o });
        out(`Created operator ${operator.username} (id ${operator.id}, role ${operator.role}).`);
        out(`Sign in at /admin with username ${operator.username} and password (shown once): ${password}`);
      }),
    );

  program
    .command('verify-audit')
    .description("check the audit trail's hash chain and signed heads; exit 1 naming the first bad seq")
    .action(
      action(async (db) => {
        const { auditKeyFile } = loadConfig();
        const result = await verifyAudit(db, loadAuditKey(auditKeyFile), readHeadWitness(witnessFileOf(auditKeyFile)));
        if (result.ok) {
          out(`Audit trail intact: ${result.rows} row(s), head seq ${result.head_seq}, signed up to seq ${result.signed_seq}.`);
          return 0;
        }
        out(`Audit trail BROKEN at seq ${result.first_bad_seq}: ${result.problem}`);
        return 1;
      }),
    );
}
