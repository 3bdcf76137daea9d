/** Lobby data: brands, every machine with its live status, one brand's machines (single-lobby mode). */
import { ApiPath, BrandList, BrandsWithMachines, BrandWithMachines, buildPaytable, Code, DEFAULT_SETTINGS, IdParams, MachinePictureResponse, PaytableResponse } from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import type { Db } from '../../db/pool.js';
import { errors } from '../../lib/errors.js';
import { PLAYERS, PUBLIC } from '../../lib/route-access.js';
import { readSettings } from '../settings/runtime-settings.js';
import { lobby, listBrands } from './lobby.js';
import { machinePicture } from './machine-art.js';

export const machineRoutes: FastifyPluginAsyncTypebox<{ db: Db; config: { settingsFile: string } }> = async (app, deps) => {
  const secured = { config: { roles: PLAYERS } };
  const schema = securedSchema('machines');
  const hotLimit = () => readSettings(deps.config.settingsFile).HOT_FLAG_LIMIT ?? DEFAULT_SETTINGS.HOT_FLAG_LIMIT;

  app.get(ApiPath.machineBrands, { ...secured, schema: schema({ response: { 200: BrandList, ...errorResponses } }) }, async () =>
    listBrands(deps.db),
  );

  app.get(ApiPath.machineAll, { ...secured, schema: schema({ response: { 200: BrandsWithMachines, ...errorResponses } }) }, async () =>
    lobby(deps.db, hotLimit(), undefined, readSettings(deps.config.settingsFile).FPS),
  );

  // Public, like the page it feeds: the paytable is what every machine plays.
  app.get(
    ApiPath.paytable,
    {
      config: { roles: PUBLIC },
      schema: {
        tags: ['machines'],
        summary: "The slot game's paytable",
        description:
          'Symbols with their line pays (line-bet multiples for 3, 4, 5 of a kind), scatter pays (total-bet multiples), paylines, free spins and the exact design RTP, from the tables the cabinets play.',
        response: { 200: PaytableResponse },
      },
    },
    async () => ({ status: true, code: Code.Success, ...buildPaytable() }),
  );

  // Public: an <img> sends no bearer header, and a machine's screen is what the lobby shows anyway.
  app.get(
    ApiPath.machineImage,
    {
      config: { roles: PUBLIC },
      schema: {
        tags: ['machines'],
        summary: "A machine's picture (its computed image path)",
        description: 'A recent JPEG still of the machine\'s screen, or its brand\'s art as SVG when there is none.',
        params: IdParams,
        response: { 200: MachinePictureResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const picture = await machinePicture(deps.db, request.params.id);
      if (!picture) throw errors.notFound();
      // Short-lived: the lobby asks again while it is open to show the machine as it is now. A lobby
      // served from another origin (API_URL) shows it too: helmet's same-origin default would not.
      return reply
        .type(picture.type)
        .header('cache-control', 'public, max-age=5')
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(picture.body);
    },
  );

  app.get(
    ApiPath.machineById,
    {
      ...secured,
      schema: schema({
        description: 'One brand group (lobby) with its machines; used in single-lobby mode.',
        params: IdParams,
        response: { 200: BrandWithMachines, ...errorResponses },
      }),
    },
    async (request) => {
      const [entry] = await lobby(deps.db, hotLimit(), request.params.id, readSettings(deps.config.settingsFile).FPS);
      if (!entry) throw errors.notFound();
      return entry;
    },
  );
};
