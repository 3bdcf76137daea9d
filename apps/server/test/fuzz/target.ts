/**
 * A fuzz target over a built app: a server on a loopback port whose session manager drives fake
 * cabinets (every machine joinable, no agent processes), and a demo player's token that is renewed,
 * and the account repaired, whenever the fuzzer logged it out, changed its password or blocked it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { App } from '../../src/app.js';
import type { AppContext } from '../../src/context.js';
import { resetPassword } from '../../src/cli/operator-commands.js';
import { FakeCabinets } from '../doubles/fake-cabinets.js';
import { SessionManager } from '../../src/modules/sessions/session-manager.js';
import type { FuzzTarget } from './fuzzer.js';

/** Puts a session manager over fake cabinets for every machine in `ctx.sessions` (before buildApp). */
export async function useFakeCabinets(ctx: AppContext): Promise<number[]> {
  const cabinets = new FakeCabinets();
  ctx.sessions = new SessionManager(
    ctx,
    cabinets,
    { grant: async () => null, setBand: async () => {} },
    ctx.config.sessions,
  );
  await ctx.sessions.start();
  const { rows } = await ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id');
  // Empty credit meters: a machine nobody holds with credits on it is kept out of play (meter-check.ts).
  for (const { id } of rows) cabinets.connect(id, 0);
  return rows.map((r) => r.id);
}

export async function fuzzTarget(app: App, ctx: AppContext, machineIds: number[]): Promise<FuzzTarget> {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app must listen on a TCP port first');
  let token: string | undefined;
  const signIn = async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'demo', password: 'demo1234' },
    });
    return response.statusCode === 200 ? response.json<{ token: string }>().token : undefined;
  };
  return {
    port: address.port,
    openapi: app.swagger() as FuzzTarget['openapi'],
    machineIds,
    // Written by the demo seed for the demo cabinets.
    machineKeys: JSON.parse(fs.readFileSync(path.join(ctx.config.dataDir, 'machine-keys.json'), 'utf8')) as Record<number, string>,
    async token() {
      if (token) return token;
      token = await signIn();
      if (!token) {
        // The fuzzer changed the password, blocked the account or took a break: put it back as the seed had it.
        await resetPassword(ctx.db, 'demo', 'demo1234');
        await ctx.db.query("DELETE FROM player_breaks WHERE player_id = (SELECT id FROM players WHERE username = 'demo')");
        await ctx.db.query(
          "UPDATE players SET failed_logins = 0, blocked_until = NULL, banned = false WHERE username = 'demo'",
        );
        token = await signIn();
      }
      if (!token) throw new Error('the fuzzer cannot sign in as demo');
      return token;
    },
    tokenRejected() {
      token = undefined;
    },
  };
}
