/**
 * Automatic quality bands: once a second, the worst link among each streaming machine's viewers
 * (loss from the browsers' receiver reports, their REMB estimate; the werift media process reports
 * both in its stats) goes through a BandStepper per machine; a step sends the cabinet `set_band`
 * with the neighbouring band of the spec's list (DEFAULT_QUALITY_BANDS, by Order). A player's own
 * band choice (VideoPort.setBand) is noted so the next step starts from it.
 *
 * With Janus the loss comes from its slowlink events (the media process turns them into a fraction,
 * janus-link.ts) and there is no estimate: the band steps on loss alone.
 */
import { DEFAULT_QUALITY_BANDS } from '@reel/protocol';
import { BandStepper } from '@reel/media-control';
import type { CabinetPort } from '../sessions/types.js';
import type { MediaService } from './media-service.js';

const TICK_MS = 1000;
/** Highest Order first: index + 1 is one band down. */
const BANDS = [...DEFAULT_QUALITY_BANDS].sort((a, b) => b.Order - a.Order);

interface BandControl {
  noteBand(machineId: number, bandId: string): void;
  stop(): void;
}

export function startBandControl(
  hub: CabinetPort,
  media: MediaService,
  options: { isStreaming: (machineId: number) => boolean; log?: (message: string) => void },
): BandControl {
  const steppers = new Map<number, BandStepper>();
  const bandOf = new Map<number, number>();
  let busy = false;

  const tick = async () => {
    if (busy || !media.supervisor.controlUrl) return;
    busy = true;
    try {
      const stats = await media.client.stats();
      const worst = new Map<number, { loss: number | null; estimate: number | null }>();
      for (const v of stats.viewers) {
        if (v.lossFraction === undefined) continue; // a backend without link reports
        // A spectator on a poor link must not lower the picture of the player (and of the others):
        // the band follows the player's link; a watcher who falls behind skips to a keyframe.
        if (v.role === 'watch') continue;
        const w = worst.get(v.machineId) ?? { loss: null, estimate: null };
        if (v.lossFraction !== null) w.loss = Math.max(w.loss ?? 0, v.lossFraction);
        if (v.estimateKbps) w.estimate = Math.min(w.estimate ?? Infinity, v.estimateKbps);
        worst.set(v.machineId, w);
      }
      for (const [machineId, w] of worst) {
        if (!options.isStreaming(machineId)) continue;
        const index = bandOf.get(machineId) ?? 0;
        let stepper = steppers.get(machineId);
        if (!stepper) steppers.set(machineId, (stepper = new BandStepper()));
        const step = stepper.sample(
          { lossFraction: w.loss, estimateKbps: w.estimate },
          BANDS[index]!.bitrateKbps,
          index > 0 ? BANDS[index - 1]!.bitrateKbps : null,
          index === BANDS.length - 1,
        );
        if (!step) continue;
        const next = step === 'down' ? index + 1 : index - 1;
        const band = BANDS[next]!;
        const result = await hub.sendCommand(machineId, { type: 'set_band', bandId: band.id }).catch(() => null);
        if (result?.outcome === 'ok') {
          bandOf.set(machineId, next);
          options.log?.(
            `machine ${machineId}: band ${step} to ${band.id} (loss ${((w.loss ?? 0) * 100).toFixed(1)} %` +
              `${w.estimate ? `, estimate ${Math.round(w.estimate)} kbit/s` : ''})`,
          );
        }
      }
    } catch {
      // the media process is restarting: next tick
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), TICK_MS);
  timer.unref();
  return {
    noteBand(machineId, bandId) {
      const index = BANDS.findIndex((b) => b.id === bandId);
      if (index >= 0) bandOf.set(machineId, index);
      steppers.delete(machineId);
    },
    stop: () => clearInterval(timer),
  };
}
