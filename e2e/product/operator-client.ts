/**
 * `operator(...)` for the browser tests: the operator command line run against this worker's
 * product, synchronously, as `execFileSync` ran it, but in a worker thread that keeps the command
 * line loaded (operator-thread.ts): about 50 ms a command instead of a Node start of 2–4 s on a
 * loaded CI machine. A non-zero exit code throws, with what the command printed.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import type { OperatorCall, OperatorReply } from './operator-thread';

const THREAD_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'operator-thread.ts');
/** As the old child process's limit: a command that takes longer has hung. */
const COMMAND_TIMEOUT_MS = 60_000;

let thread: Worker | null = null;

function operatorThread(dataDir: string): Worker {
  if (thread) return thread;
  // tsx loads the TypeScript command line inside the thread (Playwright's loader serves only this one).
  thread = new Worker(`import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(THREAD_ENTRY)}, ${JSON.stringify(import.meta.url)}))`, {
    eval: true,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdout: false,
    stderr: false,
  });
  thread.unref();
  thread.on('error', (error) => console.error(`operator thread failed: ${error.stack ?? error}`));
  thread.on('exit', () => (thread = null));
  return thread;
}

class OperatorCommandError extends Error {
  constructor(
    readonly args: string[],
    readonly status: number,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`operator ${args.join(' ')} exited with ${status}:\n${stderr || stdout}`);
  }
}

/** Runs one operator command on the product whose data folder is `dataDir`; returns what it printed. */
export function runOperatorSync(dataDir: string, args: string[]): string {
  const done = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const call: OperatorCall = { args, done, reply: port2 };
  operatorThread(dataDir).postMessage(call, [port2]);
  const waited = Atomics.wait(done, 0, 0, COMMAND_TIMEOUT_MS);
  const message = receiveMessageOnPort(port1)?.message as OperatorReply | undefined;
  port1.close();
  if (waited === 'timed-out' || !message) throw new Error(`operator ${args.join(' ')} gave no answer within ${COMMAND_TIMEOUT_MS / 1000} s`);
  if (message.code !== 0) throw new OperatorCommandError(args, message.code, message.stdout, message.stderr);
  return message.stdout;
}
