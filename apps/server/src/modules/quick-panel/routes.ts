/** Quick panel (spec sections 3 and 7): events and notes for everyone plus the player's own. */
import { ApiPath, QuickPanelData } from '@reel/protocol';
import { errorResponses } from '../../lib/route-schema.js';
import type { RouteModule } from '../../context.js';
import { underApiBase } from '../../lib/paths.js';

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
      const { rows } = await ctx.db.query<{
        id: string;
        kind: 'event' | 'note';
        title: string;
        detail: string;
      }>(
        `SELECT id::text AS id, kind, title, detail FROM (
           SELECT id, kind, title, detail, row_number() OVER (PARTITION BY kind ORDER BY created_at DESC, id DESC) AS n
             FROM quick_panel_items WHERE player_id IS NULL OR player_id = $1) items
          WHERE n <= $2
          ORDER BY kind, id`,
        [request.auth.id, ITEMS_MAX],
      );
      const pick = (kind: 'event' | 'note') =>
        rows.filter((r) => r.kind === kind).map(({ id, title, detail }) => ({ id, title, detail }));
      return { events: pick('event'), notes: pick('note') };
    },
  );
};
