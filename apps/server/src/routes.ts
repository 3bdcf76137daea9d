/**
 * Mounts every feature: API routes under `/api`, site-root routes, WebSocket channels. Each route
 * plugin gets the services it uses as its options; none of them sees the whole AppContext.
 */
import type { Api, AppContext } from './context.js';
import { authRoutes } from './modules/auth/routes.js';
import { playerRoutes } from './modules/player/routes.js';
import { promotionRoutes } from './modules/promotions/routes.js';
import { machineRoutes } from './modules/machines/routes.js';
import { historyRoutes } from './modules/history/routes.js';
import { recallRoutes } from './modules/history/recall-routes.js';
import { chatRoutes } from './modules/chat/routes.js';
import { staffChatRoutes } from './modules/chat/staff-routes.js';
import { floorRoutes } from './modules/floor/floor-routes.js';
import { handPayRoutes } from './modules/hand-pays/hand-pay-routes.js';
import { quickPanelRoutes } from './modules/quick-panel/routes.js';
import { siteRoutes } from './modules/site/routes.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import { jackpotRoutes } from './modules/notifications/jackpot-routes.js';
import { agentHubPlugin } from './modules/cabinets/plugin.js';
import { mediaPlugin } from './modules/media/plugin.js';
import { gameRoutes } from './modules/sessions/game-routes.js';
import { watchRoutes } from './modules/spectators/index.js';
import { sessionRoutes } from './modules/sessions/routes.js';
import { adminRoutes } from './modules/admin/routes.js';
import { witnessFileOf } from './modules/audit/audit-signing.js';
import { protectionRoutes } from './modules/protection/routes.js';
import { queueRoutes } from './modules/queue/routes.js';
import { readSettings } from './modules/settings/runtime-settings.js';

export async function registerRoutes(app: Api, ctx: AppContext) {
  const { config, db, bus, tokens, geo, operatorTokens } = ctx;
  // In a cluster the sessions run on the owning server; the routes ask it over the bus.
  const sessions = ctx.cluster?.sessions ?? ctx.sessions;
  await app.register(
    async (api) => {
      await api.register(authRoutes, { db, bus, tokens, geo, config, breaks: ctx.protection.breaks });
      await api.register(playerRoutes, { db, config });
      await api.register(promotionRoutes, { db, bus, config });
      await api.register(machineRoutes, { db, config });
      await api.register(historyRoutes, { db });
      await api.register(recallRoutes, { db });
      await api.register(chatRoutes, { db, bus });
      await api.register(staffChatRoutes, { db, bus });
      await api.register(handPayRoutes, { db, bus, sessions: () => ctx.cluster?.floor ?? ctx.sessions });
      await api.register(quickPanelRoutes, { db });
      await api.register(sessionRoutes, { sessions });
      await api.register(adminRoutes, { db, bus, operatorTokens, auditKey: ctx.auditKey, auditWitnessFile: witnessFileOf(config.auditKeyFile), config, protection: ctx.protection });
      await api.register(queueRoutes, { queue: ctx.queue });
      await api.register(protectionRoutes, { protection: ctx.protection, settings: () => readSettings(config.settingsFile), breakRoad: { breaks: ctx.protection.breaks, tokens, bus, sessions } });
    },
    { prefix: '/api' },
  );
  // A (re)connected player hears their queue entry again, with the ready check's time left now.
  await app.register(notificationRoutes, { bus, cluster: Boolean(ctx.cluster), attached: (playerId) => ctx.queue.resend(playerId) });
  await app.register(jackpotRoutes, { db, bus });
  await app.register(gameRoutes, { sessions, bus, geo, initTimeoutMs: config.ws.initTimeoutMs });
  if (ctx.spectators) await app.register(watchRoutes, { spectators: ctx.spectators });
  await app.register(agentHubPlugin, { hub: ctx.cabinets });
  const media = ctx.media;
  await app.register(floorRoutes, {
    db,
    bus,
    // The sessions' cabinets where this server runs them; in a cluster the mirror of every server's.
    cabinets: () => ctx.cluster?.cabinets ?? ctx.sessions.cabinets,
    // In a cluster the actions go to the owner of the machine's shard (cluster/floor-relay.ts).
    sessions: () => ctx.cluster?.floor ?? ctx.sessions,
    frameAges: media ? async () => new Map((await media.client.stats()).machines.map((m) => [m.machineId, m.lastPacketAgeMs])) : null,
  });
  const viewers = ctx.cluster?.viewers ?? ctx.media?.client;
  if (viewers) await app.register(mediaPlugin, { viewers });
  const cluster = ctx.cluster;
  await app.register(siteRoutes, { geo, config, ...(cluster ? { server: { id: cluster.serverId, owns: () => cluster.status() } } : {}) });
}
