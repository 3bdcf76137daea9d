/**
 * A product heals itself (scripts/supervised-process.ts restarts a crashed server or cabinet
 * process, the server restarts its media process), so a browser test could pass over a crash
 * without anyone seeing it. The product's log is read instead: a restart, a PostgreSQL that died,
 * an error-level line, a machine malfunction or a failed session operation is a fault, and a test
 * fails on it unless it declared that it causes it.
 *
 * The log file holds one line per product line, stamped with the time it was read:
 * `<epoch ms> <line>`. Each test's check appends the span it covered to `<log>.checked`, so the run's
 * end can fail on a fault no test looked at (one logged between tests or during a spec that does
 * not use the fixtures).
 */
import fs from 'node:fs';

interface LogLine {
  at: number;
  text: string;
}

/** What the product prints when something had to heal (see the files named). */
const FAULT_LINES: [RegExp, string][] = [
  // scripts/supervised-process.ts
  [/^\[start\] (\S+) stopped unexpectedly/, 'a supervised process crashed and was restarted'],
  // apps/server/src/modules/media/media-supervisor.ts (logged through server.ts as [media])
  [/^\[media\] media process exited/, 'the media process crashed and was restarted'],
  // apps/server/src/main.ts
  [/^\[postgres\] stopped unexpectedly/, 'PostgreSQL stopped'],
  // apps/server/src/server-process.ts
  [/ cannot start: /, 'a process could not start'],
  // apps/server/src/modules/sessions/malfunctions.ts, session-money.ts, session-manager.ts (warn)
  [/^\[sessions\] machine \d+: meters do not follow from the records/, 'a machine malfunction (its meters against the game records)'],
  [/^\[sessions\] machine \d+: cash out \S+ paid \d+, the records give another amount/, 'a cash out the game records do not explain'],
  [/^\[sessions\] /, 'a session operation failed'],
  [/^(Uncaught|Unhandled|\S*Error: )/, 'an uncaught error'],
];

/** Pino's numeric levels: 50 error, 60 fatal. */
const PINO_ERROR = 50;

/** Why the line is a fault, or null for an ordinary line. */
export function faultOf(text: string): string | null {
  for (const [pattern, why] of FAULT_LINES) if (pattern.test(text)) return why;
  if (text.startsWith('{')) {
    try {
      const entry = JSON.parse(text) as { level?: unknown };
      if (typeof entry.level === 'number' && entry.level >= PINO_ERROR) return 'an error-level log line';
    } catch {
      // not a pino line
    }
  }
  return null;
}

export const stamp = (text: string, at = Date.now()) => `${at} ${text}\n`;

export function readLog(file: string): LogLine[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const space = line.indexOf(' ');
      return { at: Number(line.slice(0, space)), text: line.slice(space + 1) };
    });
}

const checkedFile = (log: string) => `${log}.checked`;

/** Records that the span (from, to] of the log was checked by a test. */
export function markChecked(log: string, from: number, to: number) {
  fs.appendFileSync(checkedFile(log), `${from} ${to}\n`);
}

/** The fault lines of the log, up to `until`, that no test's check covered. */
export function uncheckedFaults(log: string, until: number): LogLine[] {
  const spans = fs.existsSync(checkedFile(log))
    ? fs
        .readFileSync(checkedFile(log), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(' ').map(Number) as [number, number])
    : [];
  return readLog(log).filter((line) => line.at <= until && faultOf(line.text) && !spans.some(([from, to]) => line.at > from && line.at <= to));
}

export const describeFaults = (lines: LogLine[]) =>
  lines.map((line) => `  ${new Date(line.at).toISOString().slice(11, 23)} ${faultOf(line.text)}: ${line.text.slice(0, 300)}`).join('\n');
