/**
 * Keeps HAProxy's shard → owner map (haproxy.ts) true: it hears the owners' announcements
 * (`cluster.owner`, every second and at once on a change), and on a change sets the shards' new
 * backends in the running HAProxy over its admin socket (`set map`) and rewrites the map file, which
 * a restarted HAProxy reads. A change HAProxy did not take (not up yet, restarting) is sent again,
 * with every shard, at the next announcement; until then those sockets land on any server, which
 * relays them.
 */
import fs from 'node:fs';
import net from 'node:net';
import { createNatsBus } from '../nats-bus.js';
import { OwnerTable } from '../owner-table.js';
import { SessionTopic, type OwnerAnnouncement } from '../session-rpc.js';
import { SHARD_COUNT } from '../shards.js';
import { ANY_SERVER, ownerBackend } from './haproxy.js';

interface OwnerMapOptions {
  natsUrl: string;
  natsPrefix: string;
  mapFile: string;
  adminSocket: string;
  log: (line: string) => void;
}

/** The map with every shard on any server: what HAProxy starts from before an owner is heard. */
export function writeInitialOwnerMap(mapFile: string) {
  writeMap(mapFile, () => ANY_SERVER);
}

function writeMap(mapFile: string, backendOf: (shard: number) => string) {
  const lines = Array.from({ length: SHARD_COUNT }, (_, shard) => `${shard} ${backendOf(shard)}\n`);
  fs.writeFileSync(`${mapFile}.new`, lines.join(''));
  fs.renameSync(`${mapFile}.new`, mapFile);
}

/** Sends runtime API commands in one connection; resolves with HAProxy's answer. */
function adminCommands(socketPath: string, commands: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.connect(socketPath, () => socket.end(`${commands.join(';')}\n`));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

export async function followShardOwners(opts: OwnerMapOptions): Promise<{ stop(): Promise<void> }> {
  const bus = await createNatsBus({ servers: opts.natsUrl, prefix: opts.natsPrefix, name: 'haproxy-owner-map' });
  const table = new OwnerTable();
  const backendOf = (shard: number) => {
    const owner = table.ownerOf(shard);
    return owner ? ownerBackend(owner) : ANY_SERVER;
  };
  let resendAll = false;
  // One update at a time, in the order the announcements came.
  let queue = Promise.resolve();
  const off = bus.subscribe(SessionTopic.owner, (message) => {
    const changed = table.apply(message as OwnerAnnouncement).map((c) => c.shard);
    if (!changed.length && !resendAll) return;
    queue = queue.then(async () => {
      const shards = resendAll ? Array.from({ length: SHARD_COUNT }, (_, shard) => shard) : changed;
      resendAll = false;
      try {
        const answer = await adminCommands(
          opts.adminSocket,
          shards.map((shard) => `set map ${opts.mapFile} ${shard} ${backendOf(shard)}`),
        );
        if (answer.trim()) throw new Error(answer.trim());
      } catch (error) {
        resendAll = true;
        opts.log(`HAProxy's owner map not updated (sent again at the next announcement): ${(error as Error).message}`);
      }
      // After the running HAProxy took it: the file says what HAProxy routes by.
      writeMap(opts.mapFile, backendOf);
    });
  });
  return {
    async stop() {
      off();
      await queue;
      await bus.close();
    },
  };
}
