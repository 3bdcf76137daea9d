import { Code, RootPath, type Params } from '@reel/protocol/client';
import { getSettings } from '@/config/runtime-settings';

/** A failed call: `code` is the catalogue code (0 when the network itself failed). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly httpStatus: number,
    readonly params: Params = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get isNetwork(): boolean {
    return this.httpStatus === 0;
  }
}

type TokenSource = () => string | null;
type UnauthorizedHandler = (error: ApiError) => void;

let tokenSource: TokenSource = () => null;
let onUnauthorized: UnauthorizedHandler = () => {};

export function configureApiClient(options: {
  getToken: TokenSource;
  onUnauthorized: UnauthorizedHandler;
}): void {
  tokenSource = options.getToken;
  onUnauthorized = options.onUnauthorized;
}

function apiBase(): string {
  const base = getSettings().API_URL || '/api/';
  return base.endsWith('/') ? base : `${base}/`;
}

/**
 * Joins an `ApiPath` to the configured base. Paths the spec lists under `/api/...` are relative to
 * the base too, so an operator's `API_URL` moves every call at once.
 */
function apiUrl(path: string, query?: Record<string, string | number | undefined | null>): string {
  const relative = path.replace(/^\/api\//, '').replace(/^\//, '');
  let url = apiBase() + relative;
  if (query) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) search.set(key, String(value));
    }
    const text = search.toString();
    if (text) url += `?${text}`;
  }
  return url;
}

/** The API base as an absolute URL: a relative API_URL is resolved against the page. */
function absoluteApiBase(): URL {
  return new URL(apiBase(), window.location.href);
}

/** `{api base}../check` from the spec, resolved against the page so a relative API_URL works too. */
export function checkUrl(): string {
  return new URL(`..${RootPath.check}`, absoluteApiBase()).toString();
}

/**
 * A root path the backend names (a grant's `/api/media/whep/1`), on the backend's host: API_URL
 * moves the whole backend, not only REST, so a front end served from elsewhere plays too.
 */
export function backendUrl(rootPath: string): string {
  return new URL(rootPath, absoluteApiBase()).toString();
}

/** A WebSocket of the backend (`WsPath`) on API_URL's host, `wss:` when the API is HTTPS. */
export function backendSocketUrl(wsPath: string, token: string): string {
  const api = absoluteApiBase();
  const protocol = api.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${api.host}${wsPath}?token=${encodeURIComponent(token)}`;
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined | null>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Skip the automatic logout on 401 (sign-in itself answers 401-like codes). */
  allowUnauthorized?: boolean;
  token?: string | null;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = options.token === undefined ? tokenSource() : options.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    return await fetch(apiUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Network Error', 0);
  }
}

async function failure(response: Response, options: RequestOptions): Promise<ApiError> {
  let body: { code?: number; ErrorMessage?: string; message?: string; Params?: Params } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // Proxies answer HTML on 502/504; the HTTP status alone must still produce a sensible error.
  }
  const fallbackCode = response.status === 401 ? Code.InvalidAccessToken : Code.InternalError;
  const error = new ApiError(
    typeof body.code === 'number' ? body.code : fallbackCode,
    body.ErrorMessage ?? body.message ?? response.statusText,
    response.status,
    body.Params ?? {},
  );
  if (response.status === 401 && !options.allowUnauthorized) onUnauthorized(error);
  return error;
}

/** One call of any method; `api` below names the common ones. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options);
  if (!response.ok) throw await failure(response, options);
  const body = (await response.json()) as T & {
    status?: boolean;
    code?: number;
    ErrorMessage?: string;
    Params?: Params;
  };
  // Some backends of this contract answer 200 with status:false; treat it as the error it is.
  if (body && typeof body === 'object' && body.status === false) {
    throw new ApiError(
      body.code ?? Code.InternalError,
      body.ErrorMessage ?? '',
      response.status,
      body.Params ?? {},
    );
  }
  return body;
}

export async function apiDownload(path: string, options: RequestOptions = {}): Promise<Blob> {
  const response = await send(path, { ...options, headers: { Accept: 'text/csv', ...options.headers } });
  if (!response.ok) throw await failure(response, options);
  return response.blob();
}

export const api = {
  get: <T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, options),
  post: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
};
