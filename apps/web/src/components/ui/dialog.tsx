import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  title: ReactNode;
  children: ReactNode;
  onClose?: () => void;
  actions?: ReactNode;
  /** alertdialog for prompts that need an answer (lock, deactivation). */
  role?: 'dialog' | 'alertdialog';
  className?: string;
  closeLabel?: string;
}

/**
 * A modal on the native <dialog>: the browser provides the focus trap, inert background and Esc.
 * Esc only closes when the dialog has an onClose (the lock screen must not be dismissible).
 */
export function Dialog({ open, title, children, onClose, actions, role = 'dialog', className, closeLabel }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      try {
        dialog.showModal();
      } catch {
        dialog.setAttribute('open', '');
      }
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      aria-modal="true"
      onCancel={(event) => {
        event.preventDefault();
        onClose?.();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose?.();
      }}
    >
      <div className="dialog__surface">
        <header className="dialog__header">
          <h2 id={titleId} className="dialog__title">
            {title}
          </h2>
          {onClose && closeLabel ? (
            <button type="button" className="icon-btn dialog__close" aria-label={closeLabel} onClick={onClose}>
              <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
                <path d="M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z" />
              </svg>
            </button>
          ) : null}
        </header>
        <div className="dialog__body">{children}</div>
        {actions ? <footer className="dialog__actions">{actions}</footer> : null}
      </div>
    </dialog>
  );
}
