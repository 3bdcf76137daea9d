/**
 * The operator command line (apps/server/src/cli/operator.ts) kept loaded in a worker thread of a
 * Playwright worker, so a test's `operator(...)` is one function call instead of a Node start with
 * tsx and the server's modules (2–4 s each on a loaded 2-core machine). operator-client.ts sends it
 * one command at a time and waits; what the command prints is collected and sent back with its
 * exit code, as `execFileSync` returned it before.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { runOperator } from '../../apps/server/src/cli/operator.js';

export interface OperatorCall {
  args: string[];
  /** Set to 1 (and notified) when the reply has been posted on `reply`. */
  done: Int32Array;
  reply: MessagePort;
}

export interface OperatorReply {
  code: number;
  stdout: string;
  stderr: string;
}

type Write = typeof process.stdout.write;

/** Runs `body` with everything written to `stream` collected instead of printed. */
async function capture<T>(stream: NodeJS.WriteStream, body: () => Promise<T>): Promise<{ value: T; text: string }> {
  const original = stream.write;
  let text = '';
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const callback = rest.find((entry): entry is () => void => typeof entry === 'function');
    callback?.();
    return true;
  }) as Write;
  try {
    return { value: await body(), text };
  } finally {
    stream.write = original;
  }
}

async function handle({ args, done, reply }: OperatorCall) {
  let result: OperatorReply;
  try {
    let code = 1;
    const errors = await capture(process.stderr, async () => {
      const printed = await capture(process.stdout, () => runOperator(['node', 'operator', ...args]));
      code = printed.value;
      return printed.text;
    });
    result = { code, stdout: errors.value, stderr: errors.text };
  } catch (error) {
    result = { code: 1, stdout: '', stderr: String((error as Error)?.stack ?? error) };
  }
  reply.postMessage(result);
  reply.close();
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
}

// One command at a time: the caller is blocked until the reply.
let queue = Promise.resolve();
parentPort!.on('message', (call: OperatorCall) => {
  queue = queue.then(() => handle(call));
});
