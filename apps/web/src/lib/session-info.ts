import {
  ChatAction,
  SESSION_WARNING_AUTOCLOSE_MS,
  SESSION_WARNING_FIRST_COUNT,
  SessionAction,
  type InfoNotification,
} from '@reel/protocol/client';
import { i18next, translateCode } from './i18n';
import { toast, updateToastMessage, upsertToast } from './toast-store';

/**
 * Session notices shared by the screens that meet a session: the handling of info pushes (both the
 * notification channel and the game channel carry them). The reconnect dialog's rule is
 * reconnect-rules.ts.
 */

export const SESSION_WARNING_TOAST_ID = 'session-close-warning';

/**
 * SESSION_CLOSE_WARNING (spec section 4): one toast, updated in place. At the first count (10) it is
 * created with a 10 s autoclose, so it goes when the countdown ends; later counts only change its
 * text. A screen that joins mid-countdown creates it for the seconds that are left.
 */
function showCountdownToast(count: number, message: string): void {
  if (count === SESSION_WARNING_FIRST_COUNT) {
    upsertToast({
      id: SESSION_WARNING_TOAST_ID,
      message,
      variant: 'warning',
      autoHideMs: SESSION_WARNING_AUTOCLOSE_MS,
    });
    return;
  }
  if (updateToastMessage(SESSION_WARNING_TOAST_ID, message)) return;
  upsertToast({
    id: SESSION_WARNING_TOAST_ID,
    message,
    variant: 'warning',
    autoHideMs: Math.max(1, count) * 1000,
  });
}

/** The countdown's text: the code's own wording (deposit 18800, continue 18802) when known. */
function countdownMessage(info: InfoNotification, count: number): string {
  if (i18next.exists(`codes.${info.code}`)) return translateCode(info.code, { ...info.params, count });
  return i18next.t('session.closeWarning', { count });
}

/**
 * Info pushes: the countdown toast, the expulsion notice, the closed session; anything else as a
 * notice, except a support chat message, which the chat panel shows itself (a "Request
 * Successfull" toast for it would only puzzle the player).
 */
export function handleInfo(info: InfoNotification, leaveGame: () => void): void {
  if (info.action === ChatAction.Message) return;
  const params = info.params ?? {};
  if (info.action === SessionAction.SessionCloseWarning) {
    const count = Number(params.count ?? 0);
    showCountdownToast(count, countdownMessage(info, count));
    return;
  }
  if (info.action === SessionAction.QuitRequest) {
    toast.warning(i18next.t(params.by === 'staff' ? 'session.kickedByStaff' : 'session.quitRequest'));
    leaveGame();
    return;
  }
  if (info.action === SessionAction.CloseSession) {
    leaveGame();
    toast.error(translateCode(info.code, params, info.message) || i18next.t('session.closeSession'));
    return;
  }
  toast.info(translateCode(info.code, params, info.message));
}
