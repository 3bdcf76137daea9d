import { Worker } from 'node:worker_threads';

/**
 * A worker thread running the module at `moduleUrl`. Workers do not inherit tsx's loader on Node 20,
 * so when running from source the worker is a tiny eval script that loads the module through tsx's API.
 */
export function startWorker(moduleUrl: string, workerData?: unknown): Worker {
  if (!moduleUrl.endsWith('.ts')) return new Worker(new URL(moduleUrl), { workerData });
  const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(moduleUrl)}, ${JSON.stringify(moduleUrl)}))`;
  return new Worker(boot, { eval: true, workerData });
}
