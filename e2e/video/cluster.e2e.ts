/**
 * The cluster with video, in Chromium (docs/scale.md): three servers behind HAProxy on NATS, one
 * PostgreSQL, Janus as every server's media process (werift when Janus is not installed), a cabinet
 * connected through HAProxy. A player signs in through HAProxy, joins machine 1, sees live video and
 * cashes in; the owner of machine 1's shard (whose media process the video comes through, its WHEP
 * calls relayed by shard) is killed with -9; the game comes back by itself on the shard's new owner
 * with the same credits and live video again, and a spin is played.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '@reel/process';
import {
  startEmbeddedPostgres,
  type EmbeddedDatabase,
} from '../../apps/server/src/db/embedded-postgres/embedded.js';
import { createPool, type Db } from '../../apps/server/src/db/pool.js';
import { clusterTestsMissing, natsUrl } from '../../apps/server/src/cluster/nats-available.js';
import { prepareDatabase, startCluster, type Cluster } from '../../apps/server/src/cluster/launch/launch.js';
import { cashIn, credits, joinFromLobby, spinOnce, waitFirstFrame } from '../play/play-helpers';
import { apiToken, signIn, useEnglish } from '../web/helpers';
import { chooseJanus, describeJanus } from '../../apps/media/src/janus/janus-install.js';

const JANUS = chooseJanus().bin;

test('cluster: live video through the owner, kill -9 of the owner, the game and its video come back with the same credits', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(300_000);
  const missing = await clusterTestsMissing();
  if (missing) console.log(`cluster video: skipped, ${missing}`);
  test.skip(Boolean(missing), missing ?? '');
  const backend = existsSync(JANUS) ? 'janus' : 'werift';
  console.log(`cluster video: RAN with ${backend === 'janus' ? `janus (${describeJanus()})` : backend} as the media process of each server`);

  const dir = mkdtempSync(path.join(os.tmpdir(), 'reel-cluster-video-'));
  let embedded: EmbeddedDatabase | undefined;
  let cluster: Cluster | undefined;
  let db: Db | undefined;
  try {
    embedded = await startEmbeddedPostgres(path.join(dir, 'pg'));
    await prepareDatabase(embedded.url, path.join(dir, 'data'));
    db = createPool(embedded.url, 2);
    const ports = await Promise.all([1, 2, 3, 4].map(() => freePort()));
    cluster = await startCluster({
      port: ports[0]!,
      serverPorts: ports.slice(1),
      databaseUrl: embedded.url,
      natsUrl: natsUrl(),
      natsPrefix: `reel-v-${randomBytes(4).toString('hex')}`,
      dataDir: path.join(dir, 'data'),
      jwtSecret: randomBytes(32).toString('hex'),
      cabinets: { ids: '1' },
      env: { MEDIA_BACKEND: backend, LOG_LEVEL: 'warn', SESSION_GRACE_MS: '60000', WARM_STREAMS: '0' },
      output: (name, line) => console.log(`[${name}] ${line}`),
    });
    const c = cluster;
    const pool = db;
    await expect
      .poll(
        async () =>
          (await pool.query("SELECT 1 FROM machines WHERE id = 1 AND cabinet_state = 'idle'")).rowCount,
        { timeout: 90_000 },
      )
      .toBe(1);

    const context = await browser.newContext({ baseURL: c.url });
    const request = await playwright.request.newContext({ baseURL: c.url });
    const page = await context.newPage();
    await useEnglish(page);
    const token = await apiToken(request);
    await signIn(page);
    await joinFromLobby(page, request, token, 1);
    await waitFirstFrame(page, 30_000);
    await cashIn(page, /^Load ₺5,00$/, 500);
    const before = await credits(page);

    const ownerId = (await pool.query<{ owner: string }>('SELECT owner FROM cluster_shards WHERE shard = 1')).rows[0]!.owner;
    const owner = c.servers.find((s) => s.id === ownerId)!;
    const killedAt = Date.now();
    if (process.env.CLUSTER_VIDEO_TRACE) {
      page.on('websocket', (socket) => {
        socket.on('framereceived', (f) => {
          const t = String(f.payload);
          if (/"event":"(joined|error|closed)"/.test(t))
            console.log(`TRACE +${Date.now() - killedAt} ${t.slice(0, 160)}`);
        });
        socket.on('close', () =>
          console.log(`TRACE +${Date.now() - killedAt} socket closed ${socket.url().slice(0, 60)}`),
        );
      });
      page.on(
        'response',
        (r) =>
          r.url().includes('/media/') &&
          console.log(
            `TRACE +${Date.now() - killedAt} ${r.request().method()} ${r.url().slice(-40)} ${r.status()}`,
          ),
      );
    }
    owner.child.kill('SIGKILL');
    console.log(`cluster video: kill -9 of ${ownerId} (the owner of machine 1's shard, whose media process streamed)`);

    // The web app notices by itself: its game socket is closed (1012, or cut with the dead server),
    // it joins again and gets a grant for the new owner's media process.
    await expect
      .poll(
        async () =>
          (await pool.query<{ owner: string }>('SELECT owner FROM cluster_shards WHERE shard = 1')).rows[0]?.owner ?? ownerId,
        { timeout: 30_000 },
      )
      .not.toBe(ownerId);
    await expect(page.getByTestId('video-state'))
      .not.toHaveText('LIVE', { timeout: 15_000 })
      .catch(() => {});
    await waitFirstFrame(page, 60_000);
    console.log(`cluster video: live video again ${Date.now() - killedAt} ms after the kill`);
    await expect.poll(() => credits(page), { timeout: 30_000 }).toBe(before);
    await spinOnce(page);
    await context.close();
    await request.dispose();
  } finally {
    await cluster?.stop().catch(() => {});
    await db?.end().catch(() => {});
    await embedded?.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
});
