/**
 * The fault fuzzer: every REST endpoint of the running server (read from its OpenAPI document,
 * which is generated from the routes' TypeBox schemas) and every WebSocket client message of the
 * browser channels (the TypeBox schemas in packages/protocol/src/ws.ts) and of the cabinet channel
 * (agent-channel.ts), driven with schema-derived valid-ish and hostile input over real sockets. A
 * failure is a 5xx, a connection that breaks off, an error body that is not JSON with a catalogue
 * `code`, an `error { code: 50000 }` or an abnormal close on a socket, or a server that stops
 * answering `/check`. The report also counts the sockets meant to get past the handshake (join a
 * machine, say hello, authenticate a cabinet) and how many did, so a run whose fuzzing never got
 * past the door shows as such.
 */
import fc from 'fast-check';
import { Code, GameClientSchemas, NotificationClientSchemas, WsCloseCode } from '@reel/protocol';
import { TestSocket } from '../ws-client.js';
import { rawRequest, type RawResponse } from '../raw-http.js';
import { hostileValue, rarely, schemaArbitrary, type Hints, type JsonSchema } from './arbitraries.js';
import { fuzzAgentChannel } from './agent-channel.js';
import { messageArbitrary, type ChannelSchemas } from './messages.js';
import { recordClose, recordFailure, recordJoin, stats, type FuzzReport } from './report.js';

interface Endpoint {
  method: string;
  /** OpenAPI path, `{id}` style. */
  path: string;
  parameters: { in: 'path' | 'query' | 'header'; name: string; required: boolean; schema: JsonSchema }[];
  body?: JsonSchema;
}

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Endpoint['parameters'];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Every operation of the OpenAPI document, plus the site-root routes it hides. */
function endpointsOf(openapi: OpenApi): Endpoint[] {
  const endpoints: Endpoint[] = [];
  for (const [path, operations] of Object.entries(openapi.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      endpoints.push({
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []).map((p) => ({ ...p, required: Boolean(p.required) })),
        body: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  for (const path of ['/Settings.json', '/', '/api/docs/json', '/nope'])
    endpoints.push({ method: 'GET', path, parameters: [] });
  return endpoints;
}

const endpointName = (e: Endpoint) => `${e.method} ${e.path}`;

/** Realistic values for fields the demo data knows, so requests get past lookups into handlers. */
function demoHints(machineIds: number[]): Hints {
  return {
    username: fc.constantFrom('demo', 'demo@reel.live', 'alice'),
    password: fc.constantFrom('demo1234', 'wrong-password'),
    old_password: fc.constantFrom('demo1234', 'wrong-password'),
    pin: fc.constantFrom('1234', '0000'),
    machineId: fc.constantFrom(...machineIds),
    machineID: fc.constantFrom(...machineIds),
    id: fc.constantFrom(...machineIds),
    contactId: fc.constantFrom('support', 'nobody'),
    chatId: fc.constantFrom('1-support', '2-support', 'x-y'),
    bandId: fc.constantFrom('high', 'low', 'nope'),
    search: fc.constantFrom('Golden', 'Deposit', '%', '_'),
  };
}

interface PlannedRequest {
  path: string;
  headers: Record<string, string>;
  body?: string;
  auth: 'valid' | 'none' | 'garbage';
}

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) goes out as its WTF-8 bytes,
 * as a hostile client would send them.
 */
function encodeParam(text: string): string {
  let out = '';
  for (const char of text) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

const asParamText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
/** A header value that keeps the request well-formed (no CR/LF) but may hold NUL and other bytes. */
const asHeaderText = (value: unknown) => asParamText(value).replace(/[\r\n]/g, ' ');

/** One endpoint's requests: path, query, headers and body from its schemas. */
function requestArbitrary(
  endpoint: Endpoint,
  hints: Hints,
  resolve: (ref: string) => JsonSchema | undefined,
): fc.Arbitrary<PlannedRequest> {
  const options = { hints, resolve };
  const param = (schema: JsonSchema) => schemaArbitrary(schema, options);
  const pathParams = endpoint.parameters.filter((p) => p.in === 'path');
  const queryParams = endpoint.parameters.filter((p) => p.in === 'query');
  const headerParams = endpoint.parameters.filter((p) => p.in === 'header');
  const encode = fc.oneof(
    { arbitrary: fc.constant((text: string) => encodeParam(text)), weight: 9 },
    // Percent-encoding that does not decode, or raw characters.
    { arbitrary: fc.constant((text: string) => `${encodeParam(text)}%E0%A4%A`), weight: 1 },
  );
  const pathArb = fc
    .tuple(fc.tuple(...pathParams.map((p) => param(p.schema))), encode)
    .map(([values, enc]) => {
      let path = endpoint.path;
      pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, enc(asParamText(values[i])))));
      return path;
    });
  const queryArb = fc
    .tuple(
      fc.tuple(...queryParams.map((p) => fc.option(param(p.schema), { freq: p.required ? 20 : 3 }))),
      rarely(fc.tuple(fc.constantFrom('extra', 'limit', '__proto__', ''), hostileValue), 6),
    )
    .map(([values, extra]) => {
      const pairs = queryParams.flatMap((p, i) =>
        values[i] === null ? [] : [`${encodeParam(p.name)}=${encodeParam(asParamText(values[i]))}`],
      );
      if (extra) pairs.push(`${encodeParam(extra[0])}=${encodeParam(asParamText(extra[1]))}`);
      return pairs.length ? `?${pairs.join('&')}` : '';
    });
  const headerArb = fc
    .tuple(...headerParams.map((p) => fc.option(param(p.schema), { freq: 2 })))
    .map((values) => {
      const headers: Record<string, string> = {};
      headerParams.forEach((p, i) => values[i] !== null && (headers[p.name] = asHeaderText(values[i])));
      return headers;
    });
  const bodyArb: fc.Arbitrary<{ body?: string; contentType?: string }> = endpoint.body
    ? fc.oneof(
        {
          arbitrary: param(endpoint.body).map((value) => ({
            body: JSON.stringify(value) ?? 'null',
            contentType: 'application/json',
          })),
          weight: 16,
        },
        {
          arbitrary: fc
            .constantFrom('{', '{"a":', '[]', '""', 'null', '1e999', '{"__proto__":{"x":1}}')
            .map((body) => ({ body, contentType: 'application/json' })),
          weight: 1,
        },
        {
          arbitrary: fc.integer({ min: 33, max: 20_000 }).map((depth) => ({
            body: `${'['.repeat(depth)}${']'.repeat(depth)}`,
            contentType: 'application/json',
          })),
          weight: 1,
        },
        {
          arbitrary: fc.constant({
            body: JSON.stringify({ pad: 'x'.repeat(70 * 1024) }),
            contentType: 'application/json',
          }),
          weight: 1,
        },
        {
          arbitrary: fc.constantFrom(
            { body: 'a=1', contentType: 'application/x-www-form-urlencoded' },
            { body: 'hi', contentType: 'text/plain' },
            { body: '', contentType: 'application/json' },
          ),
          weight: 1,
        },
      )
    : fc.oneof(
        { arbitrary: fc.constant({}), weight: 9 },
        {
          arbitrary: fc.constant({ body: '{"unexpected":true}', contentType: 'application/json' }),
          weight: 1,
        },
      );
  const authArb = fc.constantFrom<PlannedRequest['auth']>(
    'valid',
    'valid',
    'valid',
    'valid',
    'valid',
    'valid',
    'valid',
    'valid',
    'none',
    'garbage',
  );
  return fc
    .tuple(pathArb, queryArb, headerArb, bodyArb, authArb)
    .map(([path, query, headers, { body, contentType }, auth]) => ({
      path: path + query,
      headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
      ...(body === undefined ? {} : { body }),
      auth,
    }));
}

export interface FuzzTarget {
  port: number;
  /** A valid bearer token (signs in again when the last one stopped working). */
  token(): Promise<string>;
  /** Called when a request with the current token got 401: the next token() must be fresh. */
  tokenRejected(): void;
  openapi: OpenApi;
  machineIds: number[];
  /** The machines' agent keys (machine id → key), for the cabinet channel. */
  machineKeys: Record<number, string>;
}

/** Why a response counts as a failure, or null. */
function judge(response: RawResponse): string | null {
  if (response.error) return `connection: ${response.error}`;
  if (!response.complete) return 'incomplete response';
  if (response.status >= 500) return `HTTP ${response.status}: ${response.body.slice(0, 200)}`;
  if (response.status === 0) return 'no HTTP answer';
  if (response.status >= 400 && response.status !== 405) {
    let body: { code?: unknown; status?: unknown };
    try {
      body = JSON.parse(response.body);
    } catch {
      return `HTTP ${response.status} with a non-JSON body: ${response.body.slice(0, 120)}`;
    }
    if (typeof body.code !== 'number' || body.status !== false)
      return `HTTP ${response.status} without a catalogue code: ${response.body.slice(0, 120)}`;
  }
  return null;
}

/** Fuzzes every REST endpoint with `perEndpoint` requests each, one at a time. */
async function fuzzHttp(target: FuzzTarget, perEndpoint: number, seed: number, report: FuzzReport) {
  const resolve = (ref: string) =>
    target.openapi.components?.schemas?.[ref.replace('#/components/schemas/', '')];
  const hints = demoHints(target.machineIds);
  const endpoints = endpointsOf(target.openapi);
  const plans = endpoints.map((endpoint, i) =>
    fc.sample(requestArbitrary(endpoint, hints, resolve), { numRuns: perEndpoint, seed: seed + i }),
  );
  for (let round = 0; round < perEndpoint; round++) {
    for (const [i, endpoint] of endpoints.entries()) {
      const plan = plans[i]![round]!;
      const token = plan.auth === 'valid' ? await target.token() : undefined;
      const authorization = token ? `Bearer ${token}` : plan.auth === 'garbage' ? 'Bearer a.b.c' : undefined;
      const response = await rawRequest(target.port, {
        method: endpoint.method,
        path: plan.path,
        headers: { ...(authorization ? { authorization } : {}), ...plan.headers },
        ...(plan.body === undefined ? {} : { body: plan.body }),
      });
      if (token && response.status === 401) target.tokenRejected();
      // Logging out or swapping the token ends it: sign in again for the next request.
      // So does taking a break (player protection): the target lifts it before signing in again.
      if (token && /logout|validate|\/player\/break$/.test(endpoint.path) && response.status === 200) target.tokenRejected();
      const entry = stats(report.http, endpointName(endpoint));
      entry.requests++;
      entry.statuses[response.status] = (entry.statuses[response.status] ?? 0) + 1;
      const failure = judge(response);
      if (failure)
        recordFailure(report, entry, `${endpointName(endpoint)} ${plan.path.slice(0, 160)} body=${(plan.body ?? '').slice(0, 160)} → ${failure}`);
    }
  }
}

/** Close codes a socket may legitimately end with. */
const NORMAL_CLOSES = new Set<number>([1000, 1001, 1005, 1009, ...Object.values(WsCloseCode)]);

/**
 * One socket per `perSocket` messages on each browser channel: sometimes joined first (the game
 * channel on a machine the fake cabinets serve), then fuzzed messages; judged by the `error`s it
 * answers and how it closes.
 */
async function fuzzWebSockets(
  target: FuzzTarget,
  sockets: number,
  perSocket: number,
  seed: number,
  report: FuzzReport,
) {
  // One machine for every join: the player's session there resumes instead of a 40902 elsewhere.
  const hints = demoHints(target.machineIds.slice(0, 1));
  const channels = [
    { name: 'WS /ws/game', path: '/ws/game', schemas: GameClientSchemas as unknown as ChannelSchemas },
    {
      name: 'WS /ws/notifications',
      path: '/ws/notifications',
      schemas: NotificationClientSchemas as unknown as ChannelSchemas,
    },
  ];
  for (const [c, channel] of channels.entries()) {
    const batches = fc.sample(
      fc.array(messageArbitrary(channel.schemas, hints), { minLength: perSocket, maxLength: perSocket }),
      { numRuns: sockets, seed: seed + 1000 + c },
    );
    for (const [i, messages] of batches.entries()) {
      const entry = stats(report.ws, channel.name);
      const token = await target.token();
      const withQueryToken = i % 3 === 0;
      const socket = await TestSocket.open(
        `ws://127.0.0.1:${target.port}${channel.path}${withQueryToken ? `?token=${encodeParam(token)}` : ''}`,
      ).catch((e: unknown) => e as Error);
      if (!(socket instanceof TestSocket)) {
        recordFailure(report, entry, `${channel.name}: could not open: ${socket.message}`);
        continue;
      }
      let closeCode: number | null = null;
      void socket.closed.then(({ code }) => (closeCode = code));
      if (i % 2 === 0) {
        const machineID = target.machineIds[0];
        socket.send(
          channel.path === '/ws/game'
            ? { event: 'init', data: { machineID, token, protocol: 1 } }
            : { event: 'init', data: { token, protocol: 1 } },
        );
        const joined = await socket.next(channel.path === '/ws/game' ? 'joined' : 'hello', 2_000).then(
          () => true,
          () => false,
        );
        recordJoin(report, channel.name, joined);
      }
      for (const message of messages) {
        if (closeCode !== null) break;
        socket.send(message);
        entry.requests++;
        // The game channel allows 30 messages a second; stay under it.
        await new Promise((r) => setTimeout(r, 40));
      }
      // Let the answers to the last messages arrive.
      await socket
        .request({ event: 'ping', data: {} }, channel.path === '/ws/game' ? 'info' : 'pong', 1_500)
        .catch(() => undefined);
      if (closeCode === null) {
        if (channel.path === '/ws/game') socket.send({ event: 'leave', data: {} });
        await new Promise((r) => setTimeout(r, 50));
        await socket.close();
      }
      const closed = await socket.closed;
      for (const m of socket.messages) {
        if (m.event !== 'error') continue;
        const code = Number(m.data?.code);
        entry.statuses[code] = (entry.statuses[code] ?? 0) + 1;
        if (
          code === Code.InternalError ||
          (code >= 50000 &&
            code !== Code.MachineNoAnswer &&
            code !== Code.SessionTerminated &&
            code !== Code.PipelineFailed)
        )
          recordFailure(report, entry, `${channel.name}: error ${code} ${m.data?.ErrorMessage ?? ''} after ${JSON.stringify(messages).slice(0, 300)}`);
      }
      recordClose(report, entry, channel.name, closed, NORMAL_CLOSES, messages);
    }
  }
}

export async function fuzz(
  target: FuzzTarget,
  options: { perEndpoint: number; sockets: number; perSocket: number; seed: number },
): Promise<FuzzReport> {
  const report: FuzzReport = {
    seed: options.seed,
    http: new Map(),
    ws: new Map(),
    joins: new Map(),
    failures: [],
    serverAlive: false,
  };
  await fuzzHttp(target, options.perEndpoint, options.seed, report);
  await fuzzWebSockets(target, options.sockets, options.perSocket, options.seed, report);
  await fuzzAgentChannel(target, options.sockets, options.perSocket, options.seed, report);
  const check = await rawRequest(target.port, { method: 'GET', path: '/check' });
  report.serverAlive = check.status === 200;
  if (!report.serverAlive)
    report.failures.push(`/check answered ${check.status} ${check.error ?? ''} after the run`);
  return report;
}

