/**
 * One file writes each table of a session's money road (docs/sessions.md, "Where the code lives"):
 * every INSERT, UPDATE or DELETE of `slot_sessions`, `machine_commands` and the machine's runtime
 * state anywhere in the server's source (tests aside) is in its owner's file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const files = sourceFiles(SRC).map((file) => ({ name: path.relative(SRC, file), text: fs.readFileSync(file, 'utf8') }));

const writersOf = (statement: RegExp) => files.filter((file) => statement.test(file.text)).map((file) => file.name);

describe('one writer per table', () => {
  it('reads the whole source tree', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.some((file) => file.name === path.join('modules', 'sessions', 'session-manager.ts'))).toBe(true);
  });

  it('slot_sessions: session-repository.ts', () => {
    expect(writersOf(/\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+slot_sessions\b/)).toEqual([path.join('modules', 'sessions', 'session-repository.ts')]);
  });

  it('machine_commands: command-repository.ts', () => {
    expect(writersOf(/\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+machine_commands\b/)).toEqual([path.join('modules', 'sessions', 'command-repository.ts')]);
  });

  it('machine_queue: queue/queue-repository.ts (the queue, issue 29)', () => {
    expect(writersOf(/\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+machine_queue\b/)).toEqual([path.join('modules', 'queue', 'queue-repository.ts')]);
  });

  it("the machine's runtime state: machine-state.ts", () => {
    expect(writersOf(/\bUPDATE\s+machines\s+SET\s+[^;`'"]*\b(cabinet_state|memory_id|meter_fault)\b/)).toEqual([path.join('modules', 'sessions', 'machine-state.ts')]);
  });
});
