/**
 * What a cabinet is told about its machine, the lobby stills cabinets send, and the picture behind
 * each machine's computed image path: its latest screen still while recent, else its brand's art
 * drawn as SVG (the same palette the cabinet paints its marquee with, `brandArt` in the protocol).
 */
import { brandArt, SNAPSHOT_MAX_AGE_MS, type MachineProfile } from '@reel/protocol';
import type { Db, Queryable } from '../../db/pool.js';
import type { AgentHub } from '../cabinets/agent-hub.js';
import { readSettings } from '../settings/runtime-settings.js';

export async function machineProfile(db: Queryable, settingsFile: string, machineId: number): Promise<MachineProfile | null> {
  const { rows } = await db.query<{ name: string; brand: string }>(
    'SELECT m.name, b.name AS brand FROM machines m JOIN brands b ON b.id = m.brand_id WHERE m.id = $1',
    [machineId],
  );
  const row = rows[0];
  return row ? { name: row.name, brand: row.brand, fps: readSettings(settingsFile).FPS } : null;
}

/** Keeps each machine's latest screen still; a write that fails only costs the lobby a picture. */
export function recordSnapshots(hub: AgentHub, db: Db, log: (line: string) => void): void {
  hub.on('snapshot', ({ machineId, view, dataBase64 }) => {
    if (view !== 'screen') return;
    db.query(
      `INSERT INTO machine_snapshots (machine_id, jpeg) VALUES ($1, $2)
       ON CONFLICT (machine_id) DO UPDATE SET jpeg = excluded.jpeg, taken_at = now()`,
      [machineId, Buffer.from(dataBase64, 'base64')],
    ).catch((error: unknown) => log(`snapshot of machine ${machineId} not stored: ${String(error)}`));
  });
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** The brand's art as a 320×180 SVG: background, marquee with the brand title, the machine's name. */
function brandArtSvg(brand: string, machineName: string): string {
  const art = brandArt(brand);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180" viewBox="0 0 320 180" role="img" aria-label="${escapeXml(art.title)}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${art.background[0]}"/><stop offset="1" stop-color="${art.background[1]}"/></linearGradient>
<linearGradient id="mq" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${art.marquee[0]}"/><stop offset="1" stop-color="${art.marquee[1]}"/></linearGradient></defs>
<rect width="320" height="180" fill="url(#bg)"/>
<rect x="4" y="4" width="312" height="172" rx="10" fill="none" stroke="${art.trim}" stroke-width="3"/>
<rect x="40" y="14" width="240" height="36" rx="10" fill="url(#mq)" stroke="${art.trim}" stroke-width="1.5"/>
<text x="160" y="38" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="18" fill="${art.trim}">${escapeXml(art.title)}</text>
<text x="160" y="112" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="34" fill="${art.trim}" opacity="0.9">${escapeXml(art.feature)}</text>
<text x="160" y="158" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="14" fill="${art.trim}" opacity="0.8">${escapeXml(machineName)}</text>
</svg>`;
}

type MachinePicture = { type: 'image/jpeg'; body: Buffer } | { type: 'image/svg+xml'; body: string };

/** null: no such machine. */
export async function machinePicture(db: Queryable, machineId: number): Promise<MachinePicture | null> {
  const { rows } = await db.query<{ name: string; brand: string; jpeg: Buffer | null }>(
    `SELECT m.name, b.name AS brand,
            (SELECT s.jpeg FROM machine_snapshots s WHERE s.machine_id = m.id
                AND s.taken_at > now() - make_interval(secs => $2::double precision / 1000)) AS jpeg
       FROM machines m JOIN brands b ON b.id = m.brand_id WHERE m.id = $1`,
    [machineId, SNAPSHOT_MAX_AGE_MS],
  );
  const row = rows[0];
  if (!row) return null;
  return row.jpeg ? { type: 'image/jpeg', body: row.jpeg } : { type: 'image/svg+xml', body: brandArtSvg(row.brand, row.name) };
}
