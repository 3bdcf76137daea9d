/** Mounts every feature: API routes under `/api`, site-root routes, WebSocket channels. */
import type { Api, AppContext, RouteModule } from './context.js';
import { authRoutes } from './modules/auth/routes.js';
import { playerRoutes } from './modules/player/routes.js';
import { promotionRoutes } from './modules/promotions/routes.js';
import { machineRoutes } from './modules/machines/routes.js';
import { historyRoutes } from './modules/history/routes.js';
import { chatRoutes } from './modules/chat/routes.js';
import { quickPanelRoutes } from './modules/quick-panel/routes.js';
import { siteRoutes } from './modules/site/routes.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import { jackpotRoutes } from './modules/notifications/jackpot-routes.js';
import { agentHubPlugin } from './modules/cabinets/plugin.js';
import { mediaPlugin } from './modules/media/plugin.js';
import { gameRoutes } from './modules/sessions/game-routes.js';
import { sessionRoutes } from './modules/sessions/routes.js';

const apiModules: RouteModule[] = [
  authRoutes,
  playerRoutes,
  promotionRoutes,
  machineRoutes,
  historyRoutes,
  chatRoutes,
  quickPanelRoutes,
];

export async function registerRoutes(app: Api, ctx: AppContext) {
  // In a cluster the sessions run on the owning server; the routes ask it over the bus.
  const sessions = ctx.cluster?.sessions ?? ctx.sessions;
  await app.register(
    async (api) => {
      for (const module of [...apiModules, sessionRoutes(sessions)]) await module(api as Api, ctx);
    },
    { prefix: '/api' },
  );
  await notificationRoutes(app, ctx);
  await jackpotRoutes(app, ctx);
  await gameRoutes(app, ctx, sessions);
  await app.register(agentHubPlugin, { hub: ctx.cabinets });
  const viewers = ctx.cluster?.viewers ?? ctx.media?.client;
  if (viewers) await app.register(mediaPlugin, { viewers });
  await siteRoutes(app, ctx);
}
