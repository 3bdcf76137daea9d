/** The cabinet's fixed parts: the frame and marquee, the meter panel, the side bulbs. */
import type { SKRSContext2D } from '@napi-rs/canvas';
import {
  REELS,
  isFaultCabinetState,
  type AgentMachineState,
  type BrandArt,
  type MachineMeters,
} from '@reel/protocol';
import {
  BULBS_PER_SIDE,
  DESIGN_H,
  DESIGN_W,
  PANEL_Y,
  REEL_PITCH,
  REEL_X0,
  REEL_Y,
  WINDOW_H,
} from './cabinet-layout.js';

/** What the meter panel shows. */
interface MeterSource {
  readonly state: AgentMachineState;
  readonly meters: MachineMeters;
  readonly lastWin: number;
}

export function drawCabinetFrame(ctx: SKRSContext2D, art: BrandArt, machineId: number): void {
  const bg = ctx.createLinearGradient(0, 0, 0, DESIGN_H);
  bg.addColorStop(0, art.background[0]);
  bg.addColorStop(1, art.background[1]);
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, DESIGN_W, DESIGN_H);
  // Cabinet frame.
  const gold = ctx.createLinearGradient(0, 0, DESIGN_W, 0);
  gold.addColorStop(0, '#8a6200');
  gold.addColorStop(0.5, '#ffe27a');
  gold.addColorStop(1, '#8a6200');
  ctx.strokeStyle = gold;
  ctx.lineWidth = 6;
  ctx.beginPath();
  ctx.roundRect(8, 8, DESIGN_W - 16, DESIGN_H - 16, 18);
  ctx.stroke();
  // Marquee.
  const mq = ctx.createLinearGradient(0, 12, 0, 48);
  mq.addColorStop(0, art.marquee[0]);
  mq.addColorStop(1, art.marquee[1]);
  ctx.fillStyle = mq;
  ctx.beginPath();
  ctx.roundRect(150, 12, 340, 36, 12);
  ctx.fill();
  ctx.strokeStyle = gold;
  ctx.lineWidth = 2;
  ctx.stroke();
  ctx.font = 'bold 24px "DejaVu Sans"';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = art.trim;
  ctx.fillText(art.title, DESIGN_W / 2, 31, 330);
  ctx.font = 'bold 12px "DejaVu Sans"';
  ctx.textAlign = 'right';
  ctx.fillStyle = '#bba6d6';
  ctx.fillText(`MACHINE ${machineId}`, DESIGN_W - 30, 31);
  ctx.textAlign = 'left';
  ctx.fillText('20 LINES', 30, 31);
  // Reel window bezel.
  ctx.fillStyle = '#000';
  ctx.beginPath();
  ctx.roundRect(REEL_X0 - 8, REEL_Y - 6, REEL_PITCH * REELS + 10, WINDOW_H + 12, 10);
  ctx.fill();
  ctx.strokeStyle = gold;
  ctx.lineWidth = 3;
  ctx.stroke();
}

function meterMoney(cents: number, currencySymbol: string): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}${currencySymbol}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

export function drawMeterPanel(ctx: SKRSContext2D, source: MeterSource, currencySymbol: string): void {
  const m = source.meters;
  ctx.fillStyle = '#12052a';
  ctx.fillRect(20, PANEL_Y - 4, DESIGN_W - 40, DESIGN_H - PANEL_Y - 14);
  const boxes: [string, string, string][] = [
    ['CREDIT', meterMoney(m.creditsCents, currencySymbol), '#6dff8a'],
    ['BET', meterMoney(m.betCents, currencySymbol), '#ffe27a'],
    ['WIN', meterMoney(source.lastWin, currencySymbol), '#ff6d6d'],
  ];
  const status =
    m.freeSpinsLeft > 0 || source.state === 'in_bonus'
      ? ['FREE SPINS', `${m.freeSpinsLeft} LEFT  x2`, '#ffb84d']
      : isFaultCabinetState(source.state)
        ? ['SERVICE', source.state.toUpperCase(), '#ff4d4d']
        : m.autoplay
          ? ['AUTOPLAY', 'ON', '#4dd2ff']
          : source.state === 'cashing_out'
            ? ['CASH OUT', 'PAYING…', '#4dd2ff']
            : ['GOOD LUCK', 'PRESS SPIN', '#bba6d6'];
  boxes.push(status as [string, string, string]);
  const w = 142;
  boxes.forEach(([title, value, colour], i) => {
    const x = 30 + i * (w + 6);
    ctx.fillStyle = '#000';
    ctx.beginPath();
    ctx.roundRect(x, PANEL_Y, w, 52, 8);
    ctx.fill();
    ctx.strokeStyle = '#6b4fa0';
    ctx.lineWidth = 2;
    ctx.stroke();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.font = 'bold 11px "DejaVu Sans"';
    ctx.fillStyle = '#bba6d6';
    ctx.fillText(title, x + w / 2, PANEL_Y + 13);
    ctx.font = 'bold 20px "DejaVu Sans Mono"';
    ctx.fillStyle = colour;
    ctx.fillText(value, x + w / 2, PANEL_Y + 35, w - 8);
  });
}

export function drawBulbs(ctx: SKRSContext2D, step: number): void {
  const ys = Array.from(
    { length: BULBS_PER_SIDE },
    (_, i) => REEL_Y + 6 + (i * (WINDOW_H - 12)) / (BULBS_PER_SIDE - 1),
  );
  const sides = [30, DESIGN_W - 30];
  ctx.fillStyle = '#1a0636';
  for (const x of sides) ctx.fillRect(x - 10, REEL_Y - 6, 20, WINDOW_H + 12);
  sides.forEach((x, side) =>
    ys.forEach((y, i) => {
      const lit = step < 0 ? i % 2 === 0 : (i + side * 2 + step) % 4 === 0;
      ctx.fillStyle = lit ? '#fff6b0' : '#6b5a20';
      ctx.beginPath();
      ctx.arc(x, y, lit ? 6 : 5, 0, Math.PI * 2);
      ctx.fill();
    }),
  );
}
