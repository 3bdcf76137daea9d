/** Quick panel (spec sections 3 and 7): events and notes for everyone plus the player's own. */
import { ApiPath, QuickPanelData } from '@reel/protocol';
import { errorResponses } from '../../lib/route-schema.js';
import type { RouteModule } from '../../context.js';
import { underApiBase } from '../../lib/paths.js';
import { quickPanelItems } from './quick-panel-items.js';

// The panel is a narrow side strip; a runaway table must not turn it into a feed.
const ITEMS_MAX = 50;

export const quickPanelRoutes: RouteModule = async (app, ctx) => {
  app.get(
    underApiBase(ApiPath.quickPanelData),
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['quick-panel'],
        security: [{ bearer: [] }],
        response: { 200: QuickPanelData, ...errorResponses },
      },
    },
    async (request) => {
      const rows = await quickPanelItems(ctx.db, request.auth.id, ITEMS_MAX);
      const pick = (kind: 'event' | 'note') =>
        rows.filter((r) => r.kind === kind).map(({ id, title, detail }) => ({ id, title, detail }));
      return { events: pick('event'), notes: pick('note') };
    },
  );
};
