/**
 * Media process entry (started and supervised by the API server's media module).
 *   MEDIA_SECRET           shared secret for grants and the control API (required)
 *   MEDIA_CONTROL_PORT     control API port on 127.0.0.1 (default 0: any free port, announced on stdout)
 *   MEDIA_BACKEND          werift (default) | janus
 *   MEDIA_ICE_SERVERS      JSON array of RTCIceServer handed to werift (and to browsers by the server)
 *   MEDIA_ICE_HOSTS        extra ICE host addresses, comma separated (e.g. 127.0.0.1)
 *   JANUS_BIN              janus binary for MEDIA_BACKEND=janus (default: the NACK-fixed build when
 *                          installed, else /usr/bin/janus; janus-install.ts); one built under a
 *                          prefix loads its plugins from <prefix>/lib/janus
 * Prints one JSON line per event on stdout: {"event":"ready","data":{"controlPort":N,...}}, viewer_closed, ...
 */
import { stopOnSignal } from '@reel/process';
import type { IceServer, MediaProcessEvent } from '@reel/protocol';
import { Forwarder } from './werift/forwarder.js';
import { createControlServer, type MediaBackendApi } from './control-server.js';

const secret = process.env.MEDIA_SECRET;
if (!secret || secret.length < 16) {
  console.error('[media] MEDIA_SECRET (16+ chars) is required');
  process.exit(2);
}
const iceServers = JSON.parse(process.env.MEDIA_ICE_SERVERS ?? '[]') as IceServer[];
const iceHosts = (process.env.MEDIA_ICE_HOSTS ?? '').split(',').filter(Boolean);
const backendName = process.env.MEDIA_BACKEND === 'janus' ? 'janus' : 'werift';
const emit = (e: MediaProcessEvent) => process.stdout.write(`${JSON.stringify(e)}\n`);

let backend: MediaBackendApi & { close(): void | Promise<void> };
if (backendName === 'janus') {
  const { JanusBackend } = await import('./janus/janus.js');
  const { chooseJanus } = await import('./janus/janus-install.js');
  const choice = chooseJanus();
  // Not JSON: the supervisor logs it as a line of its own.
  console.log(`janus: ${choice.bin} (${choice.what})`);
  const janus = new JanusBackend({
    secret,
    iceServers,
    janusBin: choice.bin,
    onKeyframeRequest: (machineId) => emit({ event: 'keyframe_request', data: { machineId } }),
  });
  await janus.start();
  backend = janus;
} else {
  const fwd = new Forwarder({
    secret,
    iceServers,
    ...(iceHosts.length ? { iceAdditionalHostAddresses: iceHosts } : {}),
  });
  fwd.on('viewer_closed', (data) => emit({ event: 'viewer_closed', data }));
  fwd.on('viewer_connected', (data) => emit({ event: 'viewer_connected', data }));
  fwd.on('keyframe_request', (data) => emit({ event: 'keyframe_request', data }));
  await fwd.warmUp().catch(() => {});
  backend = fwd;
}

const server = createControlServer(backend, secret);
server.listen(Number(process.env.MEDIA_CONTROL_PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  emit({
    event: 'ready',
    data: { controlPort: typeof address === 'object' && address ? address.port : 0, backend: backendName },
  });
});

const { shutdown } = stopOnSignal(async () => {
  server.close();
  await backend.close();
});
// The supervisor holds our stdin: when it dies, we follow instead of running orphaned.
process.stdin.on('end', () => void shutdown('stdin closed'));
process.stdin.resume();
