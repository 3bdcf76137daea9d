/**
 * The slot symbols' artwork, drawn with the 2D canvas API: the cabinet paints its reels with it and
 * the web app draws the game recall (the last 10 games) with it, so a recalled game looks exactly as
 * the reels showed it.
 */
import { Sym } from './symbol-ids.js';

interface SymbolGradient {
  addColorStop(offset: number, color: string): void;
}

/** The part of a 2D canvas context the artwork uses (a browser's and @napi-rs/canvas' both fit). */
export interface SymbolCanvas {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  font: string;
  textAlign: string;
  textBaseline: string;
  createLinearGradient(x0: number, y0: number, x1: number, y1: number): SymbolGradient;
  createRadialGradient(x0: number, y0: number, r0: number, x1: number, y1: number, r1: number): SymbolGradient;
  beginPath(): void;
  closePath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  arc(x: number, y: number, r: number, start: number, end: number): void;
  ellipse(x: number, y: number, rx: number, ry: number, rotation: number, start: number, end: number): void;
  roundRect(x: number, y: number, w: number, h: number, radius: number): void;
  bezierCurveTo(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): void;
  quadraticCurveTo(cx: number, cy: number, x: number, y: number): void;
  fill(): void;
  stroke(): void;
  clip(): void;
  save(): void;
  restore(): void;
  fillText(text: string, x: number, y: number): void;
  strokeText(text: string, x: number, y: number): void;
}

function fruit(ctx: SymbolCanvas, cx: number, cy: number, r: number, inner: string, outer: string): void {
  const g = ctx.createRadialGradient(cx - r * 0.35, cy - r * 0.35, r * 0.1, cx, cy, r);
  g.addColorStop(0, inner);
  g.addColorStop(1, outer);
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
}

function leaf(ctx: SymbolCanvas, x: number, y: number, s: number): void {
  ctx.fillStyle = '#2e9e3e';
  ctx.beginPath();
  ctx.ellipse(x, y, s, s * 0.45, -0.6, 0, Math.PI * 2);
  ctx.fill();
}

function label(
  ctx: SymbolCanvas,
  text: string,
  cx: number,
  cy: number,
  size: number,
  fill: string,
  stroke: string,
): void {
  ctx.font = `bold ${size}px "DejaVu Sans"`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineWidth = Math.max(2, size / 8);
  ctx.strokeStyle = stroke;
  ctx.strokeText(text, cx, cy);
  ctx.fillStyle = fill;
  ctx.fillText(text, cx, cy);
}

function star(ctx: SymbolCanvas, cx: number, cy: number, outer: number, inner: number): void {
  ctx.beginPath();
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    ctx.lineTo(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  ctx.closePath();
}

export function drawSymbol(ctx: SymbolCanvas, s: number, w: number, h: number): void {
  const cx = w / 2;
  const cy = h / 2;
  const u = Math.min(w, h);
  switch (s) {
    case Sym.Wild: {
      const g = ctx.createLinearGradient(0, 0, 0, h);
      g.addColorStop(0, '#ffe680');
      g.addColorStop(0.5, '#e0a800');
      g.addColorStop(1, '#8a5a00');
      ctx.fillStyle = g;
      ctx.beginPath();
      ctx.roundRect(w * 0.08, h * 0.14, w * 0.84, h * 0.72, u * 0.12);
      ctx.fill();
      ctx.strokeStyle = '#fff3b0';
      ctx.lineWidth = 2;
      ctx.stroke();
      label(ctx, 'WILD', cx, cy, u * 0.34, '#c8102e', '#fff');
      break;
    }
    case Sym.Seven:
      label(ctx, '7', cx, cy + u * 0.03, u * 0.85, '#e4002b', '#ffd84d');
      break;
    case Sym.Bar: {
      ctx.fillStyle = '#111';
      ctx.beginPath();
      ctx.roundRect(w * 0.12, h * 0.3, w * 0.76, h * 0.4, u * 0.06);
      ctx.fill();
      ctx.strokeStyle = '#e6e6e6';
      ctx.lineWidth = 2;
      ctx.stroke();
      label(ctx, 'BAR', cx, cy, u * 0.3, '#fff', '#111');
      break;
    }
    case Sym.Bell: {
      const g = ctx.createLinearGradient(w * 0.25, 0, w * 0.75, 0);
      g.addColorStop(0, '#b07800');
      g.addColorStop(0.45, '#ffd84d');
      g.addColorStop(1, '#a06a00');
      ctx.fillStyle = g;
      ctx.beginPath();
      ctx.moveTo(cx, h * 0.12);
      ctx.bezierCurveTo(w * 0.72, h * 0.12, w * 0.7, h * 0.55, w * 0.85, h * 0.74);
      ctx.lineTo(w * 0.15, h * 0.74);
      ctx.bezierCurveTo(w * 0.3, h * 0.55, w * 0.28, h * 0.12, cx, h * 0.12);
      ctx.fill();
      fruit(ctx, cx, h * 0.8, u * 0.08, '#fff0a0', '#a06a00');
      break;
    }
    case Sym.Melon:
      ctx.save();
      ctx.beginPath();
      ctx.ellipse(cx, cy, u * 0.42, u * 0.36, 0, 0, Math.PI * 2);
      ctx.fillStyle = '#2f8f2f';
      ctx.fill();
      ctx.clip();
      ctx.strokeStyle = '#0f4f16';
      ctx.lineWidth = u * 0.06;
      for (let i = -2; i <= 2; i++) {
        ctx.beginPath();
        ctx.ellipse(cx + i * u * 0.16, cy, u * 0.05, u * 0.4, 0, 0, Math.PI * 2);
        ctx.stroke();
      }
      ctx.restore();
      break;
    case Sym.Plum:
      fruit(ctx, cx, cy + u * 0.04, u * 0.34, '#c99bf0', '#5b1a8f');
      leaf(ctx, cx + u * 0.14, cy - u * 0.32, u * 0.14);
      break;
    case Sym.Orange:
      fruit(ctx, cx, cy + u * 0.03, u * 0.36, '#ffd08a', '#f07800');
      leaf(ctx, cx + u * 0.1, cy - u * 0.34, u * 0.13);
      break;
    case Sym.Lemon: {
      const g = ctx.createRadialGradient(cx - u * 0.1, cy - u * 0.1, 2, cx, cy, u * 0.42);
      g.addColorStop(0, '#fffbb0');
      g.addColorStop(1, '#e3c800');
      ctx.fillStyle = g;
      ctx.beginPath();
      ctx.ellipse(cx, cy, u * 0.44, u * 0.3, -0.25, 0, Math.PI * 2);
      ctx.fill();
      break;
    }
    case Sym.Cherry:
      ctx.strokeStyle = '#3c7d22';
      ctx.lineWidth = u * 0.05;
      ctx.beginPath();
      ctx.moveTo(cx - u * 0.2, cy + u * 0.12);
      ctx.quadraticCurveTo(cx - u * 0.05, cy - u * 0.2, cx + u * 0.1, cy - u * 0.36);
      ctx.moveTo(cx + u * 0.2, cy + u * 0.16);
      ctx.quadraticCurveTo(cx + u * 0.12, cy - u * 0.15, cx + u * 0.1, cy - u * 0.36);
      ctx.stroke();
      fruit(ctx, cx - u * 0.2, cy + u * 0.2, u * 0.18, '#ff8a8a', '#a0001a');
      fruit(ctx, cx + u * 0.2, cy + u * 0.24, u * 0.18, '#ff8a8a', '#a0001a');
      break;
    case Sym.Scatter: {
      star(ctx, cx, cy, u * 0.44, u * 0.2);
      const g = ctx.createRadialGradient(cx, cy, 2, cx, cy, u * 0.44);
      g.addColorStop(0, '#ffffff');
      g.addColorStop(0.4, '#ffe14d');
      g.addColorStop(1, '#ff8c00');
      ctx.fillStyle = g;
      ctx.fill();
      ctx.strokeStyle = '#7a3d00';
      ctx.lineWidth = 2;
      ctx.stroke();
      label(ctx, 'FREE', cx, cy + u * 0.02, u * 0.16, '#7a1e00', '#fff');
      break;
    }
  }
}

