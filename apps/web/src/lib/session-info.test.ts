import { ChatAction, Code, SessionAction } from '@reel/protocol/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '@/testing/test-utils';
import { handleInfo, SESSION_WARNING_TOAST_ID } from './session-info';
import { clearToastsForTest, useToastStore } from './toast-store';

const warning = (code: number, count: number) => ({
  code,
  params: { count },
  message: '',
  action: SessionAction.SessionCloseWarning,
});
const countdownToasts = () => useToastStore.getState().toasts.filter((toast) => toast.id === SESSION_WARNING_TOAST_ID);

beforeAll(() => setupI18n('en'));
beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  clearToastsForTest();
  vi.useRealTimers();
});

describe('session info pushes', () => {
  it('the close warning is one toast, created at 10 with a 10 s autoclose and updated in place', () => {
    const leave = vi.fn();
    handleInfo(warning(Code.InfoDepositCountdown, 10), leave);
    expect(countdownToasts()).toHaveLength(1);
    expect(countdownToasts()[0]!.message).toBe('You have 10 seconds left to deposit funds');
    expect(countdownToasts()[0]!.autoHideMs).toBe(10_000);
    for (let count = 9; count >= 1; count--) {
      vi.advanceTimersByTime(1000);
      handleInfo(warning(Code.InfoDepositCountdown, count), leave);
      expect(countdownToasts()).toHaveLength(1);
    }
    expect(countdownToasts()[0]!.message).toBe('You have 1 seconds left to deposit funds');
    // The updates did not extend it: it closes 10 s after it was created.
    vi.advanceTimersByTime(1000);
    expect(countdownToasts()).toHaveLength(0);
    expect(leave).not.toHaveBeenCalled();
  });

  it('a screen that joins mid-countdown shows the seconds that are left', () => {
    handleInfo(warning(Code.InfoContinueCountdown, 4), vi.fn());
    expect(countdownToasts()[0]!.message).toBe('You have 4 seconds left to continue');
    vi.advanceTimersByTime(3999);
    expect(countdownToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(countdownToasts()).toHaveLength(0);
  });

  it('QUIT_REQUEST shows the expulsion notice and leaves; CLOSE_SESSION leaves and shows the error', () => {
    const leave = vi.fn();
    handleInfo({ code: Code.SessionTerminated, params: {}, message: '', action: SessionAction.QuitRequest }, leave);
    expect(leave).toHaveBeenCalledTimes(1);
    expect(useToastStore.getState().toasts.at(-1)!.message).toMatch(/another window/);
    handleInfo({ code: Code.InfoSessionTerminating, params: {}, message: '', action: SessionAction.CloseSession }, leave);
    expect(leave).toHaveBeenCalledTimes(2);
    const last = useToastStore.getState().toasts.at(-1)!;
    expect(last.variant).toBe('error');
    expect(last.message).toBe('Your session is being terminated');
  });

  it("a support chat message is the chat panel's, not a 'Request Successfull' notice", () => {
    const leave = vi.fn();
    handleInfo({ code: Code.Success, params: {}, message: 'chat', action: ChatAction.Message }, leave);
    vi.advanceTimersByTime(1000);
    expect(useToastStore.getState().toasts).toEqual([]);
    expect(leave).not.toHaveBeenCalled();
  });
});
