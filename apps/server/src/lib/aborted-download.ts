/**
 * A browser that navigates away mid-download aborts a compressed static file; the compression pipe
 * (@fastify/compress) then logs "premature close" at error level, though nothing failed on our
 * side. It logs the Error itself (`log.error(err)`); Fastify's own reply errors come as `{ err }`.
 */
const ABORTED = 'premature close';

export function isAbortedDownload(firstLogArgument: unknown): boolean {
  if (firstLogArgument instanceof Error) return firstLogArgument.message === ABORTED;
  const err = (firstLogArgument as { err?: unknown } | null | undefined)?.err;
  return err instanceof Error ? err.message === ABORTED : (err as { message?: unknown } | undefined)?.message === ABORTED;
}
