import { drawSymbol, SYMBOL_IDS } from '@reel/protocol/client';
import { useEffect, useRef } from 'react';

const CELL = 36;

/** The symbols as they landed (symbols[reel][row]), drawn with the cabinet's own artwork. */
export function RecalledReels({ symbols, label }: { symbols: string[][]; label: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const reels = symbols.length;
  const rows = Math.max(0, ...symbols.map((reel) => reel.length));
  useEffect(() => {
    const context = ref.current?.getContext('2d');
    if (!context) return;
    context.clearRect(0, 0, reels * CELL, rows * CELL);
    symbols.forEach((reel, x) =>
      reel.forEach((name, y) => {
        const id = SYMBOL_IDS[name];
        if (id === undefined) return;
        context.save();
        context.translate(x * CELL, y * CELL);
        drawSymbol(context, id, CELL, CELL);
        context.restore();
      }),
    );
  }, [symbols, reels, rows]);
  return (
    <canvas
      ref={ref}
      className="recall__reels"
      width={reels * CELL}
      height={rows * CELL}
      role="img"
      aria-label={label}
      data-symbols={symbols.map((reel) => reel.join(',')).join('|')}
    />
  );
}
