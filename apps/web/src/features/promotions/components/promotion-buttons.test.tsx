import { PROMOTION_COOLDOWN_MS } from '@reel/protocol/client';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { useAuthStore } from '@/lib/auth-store';
import { clearToastsForTest } from '@/lib/toast-store';
import { mockFetch, setupI18n, setupSettings } from '@/testing/test-utils';
import { checkPromotion, markUsed } from '../promotion-rules';
import { PromotionButtons } from './promotion-buttons';

beforeAll(async () => {
  await setupI18n('en');
});

afterEach(() => {
  clearToastsForTest();
  vi.unstubAllGlobals();
});

const settings = { DISCOUNT_MIN: 100, DISCOUNT_BALANCE_CHECK: true };

describe('checkPromotion', () => {
  it('refuses a discount at or above the minimum balance when the check is on', () => {
    expect(checkPromotion('discount', { balanceCents: 100, settings })).toEqual({ code: 40202, params: { amount: 100 } });
    expect(checkPromotion('discount', { balanceCents: 99, settings })).toBeNull();
    expect(checkPromotion('discount', { balanceCents: 5000, settings: { ...settings, DISCOUNT_BALANCE_CHECK: false } })).toBeNull();
    expect(checkPromotion('bonus', { balanceCents: 5000, settings })).toBeNull();
  });
  it('allows one use per cooldown (30000 ms)', () => {
    const now = 1_000_000;
    expect(checkPromotion('bonus', { balanceCents: 0, settings, lastUsedAtMs: now - 1000, nowMs: now })?.code).toBe(40203);
    expect(checkPromotion('bonus', { balanceCents: 0, settings, lastUsedAtMs: now - PROMOTION_COOLDOWN_MS, nowMs: now })).toBeNull();
  });
});

describe('discount and bonus buttons', () => {
  function setup(balance: number) {
    setupSettings({ DISCOUNT: true, BONUS: true, DISCOUNT_MIN: 100 });
    useAuthStore.setState({ status: 'authenticated', wallet: { balance, cash: balance, credit: 0, bonus: 0, discount: 0 } });
    render(
      <>
        <PromotionButtons />
        <Toaster />
      </>,
    );
  }

  it('tells the player the balance must be below the minimum', async () => {
    const fetchSpy = mockFetch({});
    setup(100000);
    await userEvent.click(screen.getByRole('button', { name: 'Discount' }));
    expect(await screen.findByText('Your balance must be below ₺1,00')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('credits a discount once, then shows the cooldown message', async () => {
    mockFetch({ 'GET /api/player/discount': () => ({ body: { status: true, code: 20000, Params: { amount: 2500 } } }) });
    setup(0);
    const button = screen.getByRole('button', { name: 'Discount' });
    await userEvent.click(button);
    expect(await screen.findByText('₺25,00 discounted successfully!')).toBeInTheDocument();
    await userEvent.click(button);
    expect(await screen.findByText('You can use discount only once per 5 minutes')).toBeInTheDocument();
  });

  it('shows the cooldown message for a bonus used moments ago in this browser', async () => {
    mockFetch({});
    markUsed('bonus');
    setup(0);
    await userEvent.click(screen.getByRole('button', { name: 'Bonus' }));
    expect(await screen.findByText('You can use discount only once per 5 minutes')).toBeInTheDocument();
  });
});
