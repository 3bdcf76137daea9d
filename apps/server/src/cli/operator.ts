/**
 * Operator command line: `npm run operator -- <command> ...` (run with no command for help).
 * Uses DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR: the one a running
 * server already has open, or, when none is running, it starts the database itself and stops it
 * afterwards. Exit codes: 0 done, 1 refused or failed (message with its code), 2 bad usage.
 */
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { AppError } from '../lib/errors.js';
import { addFloorCommands } from './operator-floor.js';
import { closeDatabase, requestedExitCode, resetExitCode } from './operator-kit.js';
import { addPlayerCommands } from './operator-players.js';
import { addStaffCommands } from './operator-staff.js';

export function buildProgram(): Command {
  const program = new Command('operator')
    .description('Reel Live operator tools. Amounts are in major units (50.00) unless --cents is given.')
    .showHelpAfterError()
    .exitOverride();
  addPlayerCommands(program);
  addFloorCommands(program);
  addStaffCommands(program);
  return program;
}

export async function runOperator(argv: string[]): Promise<number> {
  const program = buildProgram();
  resetExitCode();
  try {
    if (argv.length <= 2) {
      program.outputHelp();
      return 2;
    }
    await program.parseAsync(argv);
    return requestedExitCode();
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
    await closeDatabase();
  }
}

const invokedDirectly =
  process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (invokedDirectly) {
  const code = await runOperator(process.argv);
  // Explicit, so an open handle (a pool, a socket) cannot keep the process or change its code.
  process.exit(code);
}
