import { create } from 'zustand';
import { i18next } from './i18n';

type ToastVariant = 'info' | 'success' | 'warning' | 'error';
type ToastPosition = 'top-center' | 'bottom-center';

export interface Toast {
  id: string;
  message: string;
  variant: ToastVariant;
  position: ToastPosition;
  /** null keeps the toast until dismissed. */
  autoHideMs: number | null;
}

/**
 * Spec section 8's toast defaults ('Hi', 6000 ms, top centre), for what a toast does not name
 * itself: the session countdown names its time, not its place, so it shows at the top.
 */
const TOAST_DEFAULTS = { autoHideMs: 6000, position: 'top-center' } as const;
/** Spec section 8: standard toasts (the `toast.*` notices) sit bottom centre for 3000 ms. */
const STANDARD_TOAST = { autoHideMs: 3000, position: 'bottom-center' } as const;

interface ToastState {
  toasts: Toast[];
}

export const useToastStore = create<ToastState>(() => ({ toasts: [] }));

let counter = 0;
const timers = new Map<string, ReturnType<typeof setTimeout>>();

export function dismissToast(id: string): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  useToastStore.setState((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) }));
}

/** Adds or, when `id` is already showing, updates a toast in place (countdowns reuse one toast). */
export function upsertToast(input: Partial<Toast> = {}): string {
  const id = input.id ?? `toast-${++counter}`;
  const toast: Toast = {
    id,
    message: input.message ?? i18next.t('common.toastDefault'),
    variant: input.variant ?? 'info',
    position: input.position ?? TOAST_DEFAULTS.position,
    autoHideMs: input.autoHideMs === undefined ? TOAST_DEFAULTS.autoHideMs : input.autoHideMs,
  };
  useToastStore.setState((state) => {
    const exists = state.toasts.some((item) => item.id === id);
    return {
      toasts: exists ? state.toasts.map((item) => (item.id === id ? toast : item)) : [...state.toasts, toast],
    };
  });
  const previous = timers.get(id);
  if (previous) clearTimeout(previous);
  timers.delete(id);
  if (toast.autoHideMs !== null)
    timers.set(
      id,
      setTimeout(() => dismissToast(id), toast.autoHideMs),
    );
  return id;
}

/** Changes a showing toast's text and keeps its timer (a countdown must not extend its own life). */
export function updateToastMessage(id: string, message: string): boolean {
  let found = false;
  useToastStore.setState((state) => ({
    toasts: state.toasts.map((item) => {
      if (item.id !== id) return item;
      found = true;
      return { ...item, message };
    }),
  }));
  return found;
}

export const toast = {
  info: (message: string) => upsertToast({ ...STANDARD_TOAST, message, variant: 'info' }),
  success: (message: string) => upsertToast({ ...STANDARD_TOAST, message, variant: 'success' }),
  warning: (message: string) => upsertToast({ ...STANDARD_TOAST, message, variant: 'warning' }),
  error: (message: string) => upsertToast({ ...STANDARD_TOAST, message, variant: 'error' }),
};

export function clearToastsForTest(): void {
  for (const id of timers.keys()) dismissToast(id);
  useToastStore.setState({ toasts: [] });
}
