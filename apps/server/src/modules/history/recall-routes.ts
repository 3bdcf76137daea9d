/**
 * The game recall (issue 28): a session's last 10 games from the server's records, each with what
 * landed on the reels, and all of the session's games as CSV.
 */
import { ApiPath, Code, formatCents, GameRecallResponse, SessionIdParams } from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { PLAYERS } from '../../lib/route-access.js';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { CSV_BOM, csvLine } from './csv.js';
import { sessionGames } from './game-recall.js';

/** What the machine shows of its last games (GLI-11: at least the last 10). */
const RECALLED_GAMES = 10;

const GAME_COLUMNS = ['Time', 'Bet', 'Symbols', 'Lines Won', 'Win', 'Credits Before', 'Credits After', 'Free Spin', 'Jackpot'];

export const recallRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const secured = { config: { roles: PLAYERS } };
  const schema = securedSchema('history');
  const gamesOf = async (playerId: number, sessionId: string, last?: number) => {
    const games = await sessionGames(db, playerId, sessionId, last);
    if (!games) throw new AppError(Code.NotFound, 404);
    return games;
  };

  app.get(
    ApiPath.sessionGames,
    { ...secured, schema: schema({ params: SessionIdParams, response: { 200: GameRecallResponse, ...errorResponses } }) },
    async (request) => ({
      status: true,
      code: Code.Success,
      sessionId: request.params.id,
      games: await gamesOf(request.auth.id, request.params.id, RECALLED_GAMES),
    }),
  );

  app.get(
    ApiPath.sessionGamesCsv,
    {
      ...secured,
      schema: schema({
        params: SessionIdParams,
        response: { 200: { description: 'CSV file (UTF-8 with BOM), every game of the session', content: { 'text/csv': { schema: { type: 'string' } } } }, ...errorResponses },
      }),
    },
    async (request, reply) => {
      const games = await gamesOf(request.auth.id, request.params.id);
      const lines = games.map((g) =>
        csvLine([
          g.time,
          formatCents(g.betCents),
          // Reel by reel, top to bottom, as they landed.
          g.symbols.map((reel) => reel.join(' ')).join(' | '),
          g.lineWins.map((w) => `line ${w.line + 1}: ${w.count}× ${w.symbol} ${formatCents(w.winCents)}`).join('; '),
          formatCents(g.winCents),
          formatCents(g.creditsBeforeCents),
          formatCents(g.creditsAfterCents),
          g.freeSpin ? 'yes' : 'no',
          g.jackpot ? 'yes' : 'no',
        ]),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="session-${request.params.id}-games.csv"`)
        .send(CSV_BOM + csvLine(GAME_COLUMNS) + lines.join(''));
    },
  );
};
