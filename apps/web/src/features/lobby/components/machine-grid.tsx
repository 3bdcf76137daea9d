import type { Machine } from '@reel/protocol/client';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState } from 'react';
import { MachineCard } from './machine-card';

const CARD_MIN_WIDTH_PX = 156;
const GAP_PX = 12;
const ROW_HEIGHT_PX = 236;
/** The rows a screen shows first load their pictures at once (they are the page's largest paint). */
const EAGER_ROWS = 2;

function columnsFor(widthPx: number): number {
  return Math.max(1, Math.floor((widthPx + GAP_PX) / (CARD_MIN_WIDTH_PX + GAP_PX)));
}

/** Rows of cards virtualised against the window scroll: thousands of machines, a few dozen in the DOM. */
export function MachineGrid({ machines, label }: { machines: readonly Machine[]; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useState(2);
  const [offsetPx, setOffsetPx] = useState(0);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      setColumns(columnsFor(element.clientWidth));
      setOffsetPx(element.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(element);
    return () => observer?.disconnect();
  }, []);

  const rowCount = Math.ceil(machines.length / columns);
  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => ROW_HEIGHT_PX + GAP_PX,
    overscan: 2,
    scrollMargin: offsetPx,
  });

  return (
    <div
      ref={ref}
      className="machine-grid"
      role="list"
      aria-label={label}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => (
        <div
          key={row.key}
          className="machine-grid__row"
          style={{
            transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
            gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
            height: ROW_HEIGHT_PX,
          }}
        >
          {machines.slice(row.index * columns, row.index * columns + columns).map((machine) => (
            <div role="listitem" key={machine.id}>
              <MachineCard machine={machine} eager={row.index < EAGER_ROWS} />
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
