import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '@/testing/test-utils';
import { AutoplayDialog } from './autoplay-dialog';

beforeAll(async () => {
  await setupI18n('en');
});

describe('the autoplay dialog', () => {
  it('starts autoplay with the chosen spins and, when given, a loss and a single win in cents', async () => {
    const onStart = vi.fn();
    render(<AutoplayDialog open onStart={onStart} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Autoplay: where it stops' });
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('radio', { name: '50' }));
    await user.type(within(dialog).getByLabelText('Stop after a loss of'), '12,50');
    await user.type(within(dialog).getByLabelText('Stop after a single win of'), '100');
    await user.click(within(dialog).getByRole('button', { name: 'Start autoplay' }));
    expect(onStart).toHaveBeenCalledWith({ spins: 50, lossCents: 1250, singleWinCents: 10_000 });
  });

  it('sends only the spins when no amounts are given, and refuses an amount that is not above zero', async () => {
    const onStart = vi.fn();
    render(<AutoplayDialog open onStart={onStart} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Autoplay: where it stops' });
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText('Stop after a loss of'), '0');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Enter an amount above zero');
    expect(within(dialog).getByRole('button', { name: 'Start autoplay' })).toBeDisabled();
    await user.clear(within(dialog).getByLabelText('Stop after a loss of'));
    await user.click(within(dialog).getByRole('button', { name: 'Start autoplay' }));
    expect(onStart).toHaveBeenCalledWith({ spins: 10 });
  });
});
