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

describe('checkPromotion', () => {
  it('allows one use per cooldown (30000 ms)', () => {
    const now = 1_000_000;
    expect(checkPromotion({ lastUsedAtMs: now - 1000, nowMs: now })?.code).toBe(40203);
    expect(checkPromotion({ lastUsedAtMs: now - PROMOTION_COOLDOWN_MS, nowMs: now })).toBeNull();
    expect(checkPromotion({ nowMs: now })).toBeNull();
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

  it("asks the server even with a large balance and shows its refusal with the server's minimum", async () => {
    // The balance rule is the server's (Settings.json DISCOUNT_MIN); the app has no copy of it.
    const fetchSpy = mockFetch({
      'GET /api/player/discount': () => ({
        status: 409,
        body: { status: false, code: 40202, ErrorMessage: 'Your balance must be below 100.00', Params: { amount: 10_000 } },
      }),
    });
    setup(100000);
    await userEvent.click(screen.getByRole('button', { name: 'Discount' }));
    expect(await screen.findByText('Your balance must be below ₺100,00')).toBeInTheDocument();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
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
