import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { setPlayBusy } from '@/lib/play-activity';
import { local, StorageKey } from '@/lib/storage';
import { mockFetch, setupI18n, setupSettings } from '@/testing/test-utils';
import { useLockStore } from '../stores/lock-store';
import { IdleLock } from './idle-lock';

beforeAll(async () => {
  await setupI18n('en');
});

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  useLockStore.setState({ locked: false, deactivationPrompt: false });
  setPlayBusy(false);
  useAuthStore.setState({ status: 'authenticated', token: 't', user: { hasPin: true, roles: ['user'] } as never });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('idle lock', () => {
  it('locks after 60000 ms without activity and unlocks with the right PIN', async () => {
    setupSettings({ PIN_CHECK: true });
    const fetchSpy = mockFetch({
      'POST /api/player/pin/verify': (_url, init) =>
        JSON.parse(String(init?.body)).pin === '1234'
          ? { body: { status: true, code: 20000 } }
          : { status: 400, body: { status: false, code: 40002, ErrorMessage: 'PIN is wrong' } },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<IdleLock />);
    act(() => vi.advanceTimersByTime(59_000));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByRole('alertdialog', { name: 'LOCKED' })).toBeInTheDocument();
    expect(local.get(StorageKey.lock)).toBe('1');

    await user.type(screen.getByLabelText('PIN'), '9999');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('PIN is wrong')).toBeInTheDocument();

    await user.type(screen.getByLabelText('PIN'), '1234');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(local.get(StorageKey.lock)).toBeNull();
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });

  it('activity postpones the lock', () => {
    setupSettings({ PIN_CHECK: true });
    render(<IdleLock />);
    act(() => vi.advanceTimersByTime(50_000));
    act(() => {
      window.dispatchEvent(new Event('keydown'));
    });
    act(() => vi.advanceTimersByTime(50_000));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByRole('alertdialog', { name: 'LOCKED' })).toBeInTheDocument();
  });

  it('restores the lock on reload when PIN_CHECK is on, a PIN exists and the flag is stored', () => {
    setupSettings({ PIN_CHECK: true });
    local.set(StorageKey.pinCode, '1');
    local.set(StorageKey.lock, '1');
    render(<IdleLock />);
    expect(screen.getByRole('alertdialog', { name: 'LOCKED' })).toBeInTheDocument();
  });

  it('asks whether to continue instead of locking when PIN_CHECK is off', async () => {
    setupSettings({ PIN_CHECK: false });
    local.set(StorageKey.lock, '1');
    render(<IdleLock />);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByRole('alertdialog', { name: 'Are you still there?' })).toBeInTheDocument();
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('never interrupts a machine in autoplay or a bonus round; the idle clock restarts when it ends', () => {
    setupSettings({ PIN_CHECK: true });
    render(<IdleLock />);
    act(() => setPlayBusy(true));
    act(() => vi.advanceTimersByTime(10 * 60_000));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    act(() => setPlayBusy(false));
    act(() => vi.advanceTimersByTime(59_000));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByRole('alertdialog', { name: 'LOCKED' })).toBeInTheDocument();
  });

  it('the Turkish lock text names the default PIN ({secret})', async () => {
    await setupI18n('tr');
    setupSettings({ PIN_CHECK: true, DEFAULT_PIN: '0000' });
    local.set(StorageKey.pinCode, '1');
    local.set(StorageKey.lock, '1');
    render(<IdleLock />);
    expect(screen.getByRole('alertdialog', { name: 'KİLİTLİ' })).toHaveTextContent('varsayılan pin 0000');
    await setupI18n('en');
  });
});
