/**
 * A server that cannot start says why and what to do in one line, and exits with EX_CONFIG (78),
 * which `npm start` takes as "do not restart, a person must act" (any other exit is a crash it
 * restarts).
 */
import { portFromEnv } from './config.js';
import { EmbeddedPostgresError } from './db/embedded-postgres/embedded.js';

export function explainStartupError(error: unknown, port = portFromEnv()): string {
  const e = error as NodeJS.ErrnoException & { address?: string };
  if (error instanceof EmbeddedPostgresError)
    return `${e.message}. Fix the cause above, or delete the data folder's pg directory to start over, or set DATABASE_URL to use another PostgreSQL.`;
  if (e?.code === 'EADDRINUSE') return `port ${port} is already in use. Stop what uses it (an earlier npm start?) or choose another with PORT=...`;
  if (e?.code === 'EACCES' && e.syscall === 'listen') return `not allowed to listen on port ${port}. Choose a port above 1023 with PORT=...`;
  if (e?.code === 'ECONNREFUSED' || e?.code === 'ENOTFOUND' || e?.code === '28P01' || e?.code === '3D000')
    return `cannot use the PostgreSQL at DATABASE_URL (${e.message}). Check that it runs and that DATABASE_URL is right.`;
  if (e?.code === 'EACCES' || e?.code === 'EPERM')
    return `${e.message}. The data folder (DATA_DIR) must be writable by this user.`;
  return `${e?.message ?? String(error)}. See the log above; fix the cause and start again.`;
}

/**
 * A start that failed for a passing reason (something too slow on a loaded machine, not a setting
 * a person must fix): the server exits as a crash, so `npm start` restarts it with its backoff.
 */
export function isTransientStartupError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { transient?: unknown }).transient === true;
}
