import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupI18n } from '@/testing/test-utils';
import { clearToastsForTest, toast, upsertToast, useToastStore } from './toast-store';

beforeAll(() => setupI18n('en'));
afterEach(() => clearToastsForTest());

const only = () => {
  const { toasts } = useToastStore.getState();
  expect(toasts).toHaveLength(1);
  return toasts[0]!;
};

describe('toast defaults (spec section 8)', () => {
  it("a toast that names nothing is 'Hi', top centre, for 6000 ms", () => {
    upsertToast();
    expect(only()).toMatchObject({ message: 'Hi', position: 'top-center', autoHideMs: 6000, variant: 'info' });
  });

  it('a toast takes the defaults for what it does not name itself (the session countdown names only its time)', () => {
    upsertToast({ message: 'You have 10 seconds left to deposit funds', variant: 'warning', autoHideMs: 10_000 });
    expect(only()).toMatchObject({ position: 'top-center', autoHideMs: 10_000 });
  });

  it('standard notices sit bottom centre for 3000 ms', () => {
    toast.error('Network Error, please check your connection');
    expect(only()).toMatchObject({ position: 'bottom-center', autoHideMs: 3000, variant: 'error' });
  });
});
