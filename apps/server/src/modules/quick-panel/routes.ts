/** Quick panel (spec sections 3 and 7): events and notes for everyone plus the player's own. */
import { ApiPath, QuickPanelData } from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import type { Db } from '../../db/pool.js';
import { underApiBase } from '../../lib/paths.js';
import { PLAYERS } from '../../lib/route-access.js';
import { quickPanelItems } from './quick-panel-items.js';

// The panel is a narrow side strip; a runaway table must not turn it into a feed.
const ITEMS_MAX = 50;

export const quickPanelRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get(
    underApiBase(ApiPath.quickPanelData),
    {
      config: { roles: PLAYERS },
      schema: securedSchema('quick-panel')({ response: { 200: QuickPanelData, ...errorResponses } }),
    },
    async (request) => {
      const rows = await quickPanelItems(db, request.auth.id, ITEMS_MAX);
      const pick = (kind: 'event' | 'note') =>
        rows.filter((r) => r.kind === kind).map(({ id, title, detail }) => ({ id, title, detail }));
      return { events: pick('event'), notes: pick('note') };
    },
  );
};
