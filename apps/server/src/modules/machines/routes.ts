/** Lobby data: brands, every machine with its live status, one brand's machines (single-lobby mode). */
import { Type } from 'typebox';
import { ApiPath, Brand, BrandWithMachines, DEFAULT_SETTINGS, Int4 } from '@reel/protocol';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import type { RouteModule } from '../../context.js';
import { errors } from '../../lib/errors.js';
import { readSettings } from '../site/routes.js';
import { lobby, listBrands } from './lobby.js';


export const machineRoutes: RouteModule = async (app, ctx) => {
  const secured = { preHandler: app.authenticate };
  const schema = securedSchema('machines');
  const hotLimit = () => readSettings(ctx.config.settingsFile).HOT_FLAG_LIMIT ?? DEFAULT_SETTINGS.HOT_FLAG_LIMIT;

  app.get(ApiPath.machineBrands, { ...secured, schema: schema({ response: { 200: Type.Array(Brand), ...errorResponses } }) }, async () =>
    listBrands(ctx.db),
  );

  app.get(ApiPath.machineAll, { ...secured, schema: schema({ response: { 200: Type.Array(BrandWithMachines), ...errorResponses } }) }, async () =>
    lobby(ctx.db, hotLimit()),
  );

  app.get(
    ApiPath.machineById,
    {
      ...secured,
      schema: schema({
        description: 'One brand group (lobby) with its machines; used in single-lobby mode.',
        params: Type.Object({ id: Int4({ minimum: 1 }) }),
        response: { 200: BrandWithMachines, ...errorResponses },
      }),
    },
    async (request) => {
      const [entry] = await lobby(ctx.db, hotLimit(), request.params.id);
      if (!entry) throw errors.notFound();
      return entry;
    },
  );
};
