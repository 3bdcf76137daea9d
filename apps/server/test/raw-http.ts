/**
 * A bare HTTP/1.1 client over a TCP socket for tests that must send what `fetch` refuses (NUL in a
 * header, a 20 KB URL, a broken request line) and see exactly what came back: status, body, and
 * whether the answer arrived whole or the connection broke off (a streamed 200 that resets).
 */
import net from 'node:net';

interface RawRequest {
  method: string;
  /** Written as is into the request line: percent-encode what must be. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** True when the whole answer arrived (Content-Length reached or the last chunk seen). */
  complete: boolean;
  /** A socket error (ECONNRESET...) or a timeout, when there was one. */
  error?: string;
}

function decodeChunked(data: Buffer): { body: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) return { body: Buffer.concat(parts), complete: false };
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return { body: Buffer.concat(parts), complete: false };
    if (size === 0) return { body: Buffer.concat(parts), complete: true };
    const start = lineEnd + 2;
    if (start + size > data.length)
      return { body: Buffer.concat([...parts, data.subarray(start)]), complete: false };
    parts.push(data.subarray(start, start + size));
    offset = start + size + 2;
  }
}

function parseResponse(raw: Buffer): Omit<RawResponse, 'error'> {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) return { status: 0, headers: {}, body: raw.toString('utf8'), complete: false };
  const [statusLine = '', ...lines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.subarray(headEnd + 4);
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const { body, complete } = decodeChunked(rest);
    return { status, headers, body: body.toString('utf8'), complete };
  }
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  return {
    status,
    headers,
    body: rest.toString('utf8'),
    complete: length === undefined ? status === 204 || status === 304 : rest.length >= length,
  };
}

/** Sends one request on a fresh connection (`Connection: close`) and reads until the server closes. */
export function rawRequest(port: number, request: RawRequest, timeoutMs = 15_000): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const body =
      request.body === undefined
        ? undefined
        : Buffer.isBuffer(request.body)
          ? request.body
          : Buffer.from(request.body, 'utf8');
    const headers: Record<string, string> = {
      host: `127.0.0.1:${port}`,
      connection: 'close',
      ...request.headers,
    };
    if (body) headers['content-length'] = String(body.length);
    const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`;
    const timer = setTimeout(() => {
      error = 'timeout';
      socket.destroy();
    }, timeoutMs);
    socket.on('connect', () => {
      socket.write(Buffer.from(head, 'utf8'));
      if (body) socket.write(body);
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ ...parseResponse(Buffer.concat(chunks)), ...(error ? { error } : {}) });
    });
  });
}
