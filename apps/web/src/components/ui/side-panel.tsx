import { useEffect, useId, useRef, type ReactNode } from 'react';

interface SidePanelProps {
  onClose: () => void;
  title: string;
  closeLabel: string;
  side?: 'start' | 'end';
  widthPx: number;
  children: ReactNode;
  className?: string;
}

/**
 * A sliding panel at the screen edge; Esc or a click outside closes it (spec: chat panel). Its owner
 * renders it only while open, so a closed panel builds none of its content: the panel takes the
 * focus when it mounts and hands it back when it goes.
 */
export function SidePanel({ onClose, title, closeLabel, side = 'end', widthPx, children, className }: SidePanelProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, [onClose]);
  return (
    <div className="side-panel-root">
      <div className="side-panel__backdrop" aria-hidden="true" onClick={onClose} data-testid="side-panel-backdrop" />
      <section
        ref={ref}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={`side-panel side-panel--${side}${className ? ` ${className}` : ''}`}
        style={{ width: `min(${widthPx}px, 100vw)` }}
      >
        <header className="side-panel__header">
          <h2 id={titleId} className="side-panel__title">
            {title}
          </h2>
          <button type="button" className="icon-btn" aria-label={closeLabel} title={closeLabel} onClick={onClose}>
            <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
              <path d="M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z" />
            </svg>
          </button>
        </header>
        <div className="side-panel__body">{children}</div>
      </section>
    </div>
  );
}
