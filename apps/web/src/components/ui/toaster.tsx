import { useTranslation } from 'react-i18next';
import { dismissToast, useToastStore, type Toast } from '@/lib/toast-store';

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  return (
    <div className={`toast toast--${toast.variant}`} role={toast.variant === 'error' ? 'alert' : 'status'}>
      <span className="toast__message">{toast.message}</span>
      <button type="button" className="toast__close" aria-label={t('common.dismiss')} onClick={() => dismissToast(toast.id)}>
        ×
      </button>
    </div>
  );
}

export function Toaster() {
  const toasts = useToastStore((state) => state.toasts);
  const top = toasts.filter((item) => item.position === 'top-center');
  const bottom = toasts.filter((item) => item.position === 'bottom-center');
  return (
    <>
      <div className="toaster toaster--top">
        {top.map((item) => (
          <ToastItem key={item.id} toast={item} />
        ))}
      </div>
      <div className="toaster toaster--bottom">
        {bottom.map((item) => (
          <ToastItem key={item.id} toast={item} />
        ))}
      </div>
    </>
  );
}
