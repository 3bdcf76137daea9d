import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '@/testing/test-utils';
import { formatMoney } from '@/lib/money';
import { BlockReason, type Rule } from '../game-rules';
import { ControlDeck } from './control-deck';

beforeAll(() => setupI18n('en'));

const money = (cents: number) => formatMoney(cents);

function renderDeck(over: Partial<Parameters<typeof ControlDeck>[0]> = {}) {
  const props = {
    spin: null as Rule,
    bet: null as Rule,
    autoplay: null as Rule,
    cashOut: null as Rule,
    coin: (amountCents: number): Rule => (amountCents > 5000 ? BlockReason.Wallet : null),
    autoplayOn: false,
    autoplayShown: true,
    spinning: false,
    betCents: 100,
    canBetDown: true,
    canBetUp: true,
    money,
    limitText: money(2_500_000),
    onSpin: vi.fn(),
    onBet: vi.fn(),
    onAutoplay: vi.fn(),
    onCashIn: vi.fn(),
    onCashOut: vi.fn(),
    ...over,
  };
  render(<ControlDeck {...props} />);
  return props;
}

describe('ControlDeck', () => {
  it('hot coins the wallet cannot pay are disabled; the others cash in their amount', async () => {
    const props = renderDeck();
    expect(screen.getByRole('button', { name: `Load ${money(500)}` })).toBeEnabled();
    expect(screen.getByRole('button', { name: `Load ${money(10_000)}` })).toBeDisabled();
    expect(screen.getByRole('button', { name: `Load ${money(100_000)}` })).toHaveAttribute('title', 'Not enough balance');
    await userEvent.click(screen.getByRole('button', { name: `Load ${money(5000)}` }));
    expect(props.onCashIn).toHaveBeenCalledWith(5000);
  });

  it('a blocked spin is disabled and says why', () => {
    renderDeck({ spin: BlockReason.Video });
    const spin = screen.getByRole('button', { name: 'Spin' });
    expect(spin).toBeDisabled();
    expect(spin).toHaveAccessibleDescription('Waiting for the video');
  });

  it('shows the bet amount, steps the bet and toggles autoplay as a pressed button', async () => {
    const props = renderDeck({ autoplayOn: true, canBetUp: false });
    expect(screen.getByTestId('bet-amount')).toHaveTextContent(money(100));
    expect(screen.getByRole('button', { name: 'Raise bet' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Lower bet' }));
    expect(props.onBet).toHaveBeenCalledWith(-1);
    expect(screen.getByRole('button', { name: 'Autoplay' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('cash out is disabled without credits', () => {
    renderDeck({ cashOut: BlockReason.NoCredits });
    expect(screen.getByRole('button', { name: 'Cash out' })).toBeDisabled();
  });
});

describe('AUTOPLAY_ALLOWED off', () => {
  it('hides the autoplay button', () => {
    renderDeck({ autoplayShown: false });
    expect(screen.queryByRole('button', { name: /autoplay/i })).toBeNull();
    expect(screen.getByRole('button', { name: 'Spin' })).toBeInTheDocument();
  });
});
