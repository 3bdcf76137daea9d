/** Slot session and transaction history of the signed-in player: pages for "load more", CSV downloads. */
import { Readable } from 'node:stream';
import { ApiPath, Code, HistoryCsvQuery, HistoryQuery, SlotSessionPage, TransactionPage, type SlotSessionRow, type TransactionRow, formatCents } from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import type { Db } from '../../db/pool.js';
import { PLAYERS } from '../../lib/route-access.js';
import { allRows, listSlotSessions, listTransactions } from './queries.js';
import { CSV_BOM, csvLine, formatDuration, type CsvValue } from './csv.js';

const DEFAULT_LIMIT = 10;

const csvResponse = {
  200: {
    description: 'CSV file (UTF-8 with BOM), all matching rows',
    content: { 'text/csv': { schema: { type: 'string' } } },
  },
  ...errorResponses,
};

const SESSION_COLUMNS = [
  'Session',
  'Machine',
  'Brand',
  'Start',
  'End',
  'Played Session Duration',
  'Spin Count',
  'Free Spin Count',
  'Cash In',
  'Cash Out',
  'Net',
  'Status',
];
const sessionCells = (r: SlotSessionRow): CsvValue[] => [
  r.id,
  r.machine,
  r.brand,
  r.start,
  r.end,
  formatDuration(r.duration_s),
  r.spin_count,
  r.free_spin_count,
  formatCents(r.cash_in),
  formatCents(r.cash_out),
  formatCents(r.net),
  r.status,
];

// Spec section 2 "Tables": the transaction columns, in this order.
const TRANSACTION_COLUMNS = [
  'Operation Date',
  'Played Session Duration',
  'From',
  'Amount',
  'Type',
  'Machine',
  'Start',
  'End',
  'Spin Count',
  'Free Spin Count',
  'Tag',
];
const transactionCells = (r: TransactionRow): CsvValue[] => [
  r.date,
  formatDuration(r.duration_s),
  r.from,
  formatCents(r.amount),
  r.type,
  r.machine,
  r.start,
  r.end,
  r.spin_count,
  r.free_spin_count,
  r.tag,
];

/**
 * Reads the first row before anything is sent: a failing query then answers a coded error, not a
 * 200 whose body breaks off. Rows after it stream.
 */
async function primed<T>(rows: AsyncGenerator<T>): Promise<AsyncIterable<T>> {
  const first = await rows.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    yield* rows;
  })();
}

async function* csvStream<T>(columns: string[], rows: AsyncIterable<T>, cells: (row: T) => CsvValue[]) {
  yield CSV_BOM + csvLine(columns);
  // Lines go out in chunks: one write per row would be slow, one write for all would hold it in memory.
  let chunk = '';
  for await (const row of rows) {
    chunk += csvLine(cells(row));
    if (chunk.length > 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

const fileName = (base: string) => `${base}-${new Date().toISOString().slice(0, 10)}.csv`;

export const historyRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const secured = { config: { roles: PLAYERS } };
  const schema = securedSchema('history');

  app.get(
    ApiPath.slotSessions,
    {
      ...secured,
      schema: schema({ querystring: HistoryQuery, response: { 200: SlotSessionPage, ...errorResponses } }),
    },
    async (request) => ({
      status: true,
      code: Code.Success,
      ...(await listSlotSessions(db, request.auth.id, {
        ...request.query,
        limit: request.query.limit ?? DEFAULT_LIMIT,
      })),
    }),
  );

  app.get(
    ApiPath.transactions,
    {
      ...secured,
      schema: schema({ querystring: HistoryQuery, response: { 200: TransactionPage, ...errorResponses } }),
    },
    async (request) => ({
      status: true,
      code: Code.Success,
      ...(await listTransactions(db, request.auth.id, {
        ...request.query,
        limit: request.query.limit ?? DEFAULT_LIMIT,
      })),
    }),
  );

  app.get(
    ApiPath.slotSessionsCsv,
    { ...secured, schema: schema({ querystring: HistoryCsvQuery, produces: ['text/csv'], response: csvResponse }) },
    async (request, reply) => {
      const rows = await primed(allRows(listSlotSessions, db, request.auth.id, request.query.search));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName('slot-sessions')}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csvStream(SESSION_COLUMNS, rows, sessionCells)));
    },
  );

  app.get(
    ApiPath.transactionsCsv,
    { ...secured, schema: schema({ querystring: HistoryCsvQuery, produces: ['text/csv'], response: csvResponse }) },
    async (request, reply) => {
      const rows = await primed(allRows(listTransactions, db, request.auth.id, request.query.search));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName('transactions')}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csvStream(TRANSACTION_COLUMNS, rows, transactionCells)));
    },
  );
};
