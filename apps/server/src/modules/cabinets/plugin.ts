/**
 * Fastify plugin: the `/ws/agent` WebSocket route for machine agents. Self-contained: registers
 * @fastify/websocket when the app has not, and exposes the hub the rest of the server uses.
 *
 *   const hub = new AgentHub({ verifyMachineKey: (id, key) => verifyMachineKey(db, id, key) });
 *   await app.register(agentHubPlugin, { hub });
 *   hub.on('cycle', ...); await hub.sendCommand(7, { type: 'credit_in', amountCents: 500 });
 */
import type { FastifyPluginAsync } from 'fastify';
// Brings in the route schema's `hide` option (the routes stay out of the OpenAPI document).
import type {} from '@fastify/swagger';
import websocket from '@fastify/websocket';
import { AGENT_WS_PATH } from '@reel/protocol';
import { PUBLIC } from '../../lib/route-access.js';
import type { AgentHub } from './agent-hub.js';

interface AgentHubPluginOptions {
  hub: AgentHub;
  path?: string;
}

export const agentHubPlugin: FastifyPluginAsync<AgentHubPluginOptions> = async (app, opts) => {
  if (!app.hasDecorator('websocketServer'))
    await app.register(websocket, { options: { maxPayload: 256 * 1024 } });
  const { hub } = opts;
  // No player token: each machine on the channel authenticates with its own key (agent-hub.ts).
  app.get(opts.path ?? AGENT_WS_PATH, { websocket: true, config: { roles: PUBLIC }, schema: { hide: true } }, (socket) => {
    const conn = hub.accept({
      send: (data) => socket.send(data),
      close: (code, reason) => socket.close(code, reason),
    });
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return;
      void conn.onMessage(data.toString('utf8'));
    });
    socket.on('close', () => conn.onClose());
    socket.on('error', () => conn.onClose());
  });
  app.addHook('onClose', async () => hub.closeAll());
};
