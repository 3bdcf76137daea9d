import { HOT_COINS } from '@reel/protocol/client';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/icon';
import { clickOnButton } from '../click-sound';
import type { Rule } from '../game-rules';

interface ControlDeckProps {
  spin: Rule;
  bet: Rule;
  autoplay: Rule;
  cashOut: Rule;
  /** Rule per hot coin amount. */
  coin: (amountCents: number) => Rule;
  autoplayOn: boolean;
  /** AUTOPLAY_ALLOWED: off hides the button. */
  autoplayShown: boolean;
  spinning: boolean;
  betCents: number;
  canBetDown: boolean;
  canBetUp: boolean;
  money: (cents: number) => string;
  limitText: string;
  onSpin: () => void;
  onBet: (step: 1 | -1) => void;
  onAutoplay: () => void;
  onCashIn: (amountCents: number) => void;
  onCashOut: () => void;
}

/** The player's buttons: hot coins, bet, the big spin, autoplay and cash out. */
export function ControlDeck(props: ControlDeckProps) {
  const { t } = useTranslation();
  const { money } = props;
  const reason = (rule: Rule) => (rule ? t(`game.reason.${rule}`, { limit: props.limitText }) : undefined);
  const spinHint = reason(props.spin);
  return (
    <section className="deck" aria-label={t('game.spin')} onClickCapture={clickOnButton}>
      <div className="deck__coins" role="group" aria-label={t('game.hotCoins')}>
        {HOT_COINS.map(({ amountCents, color }) => {
          const rule = props.coin(amountCents);
          return (
            <button
              key={amountCents}
              type="button"
              className={`coin coin--${color}`}
              disabled={rule !== null}
              title={reason(rule) ?? t('game.hotCoin', { amount: money(amountCents) })}
              aria-label={t('game.hotCoin', { amount: money(amountCents) })}
              onClick={() => props.onCashIn(amountCents)}
            >
              <span className="coin__face" aria-hidden="true">
                {money(amountCents).replace(/[,.]00(?!\d)/, '')}
              </span>
            </button>
          );
        })}
      </div>
      <div className="deck__main">
        <div className="deck__bet" role="group" aria-label={t('game.bet')}>
          <button type="button" className="deck__step" aria-label={t('game.betDown')} aria-keyshortcuts="-" disabled={props.bet !== null || !props.canBetDown} onClick={() => props.onBet(-1)}>
            <Icon name="remove" size={20} />
          </button>
          <div className="deck__bet-value" aria-live="polite">
            <span className="deck__label">{t('game.bet')}</span>
            <strong data-testid="bet-amount">{money(props.betCents)}</strong>
          </div>
          <button type="button" className="deck__step" aria-label={t('game.betUp')} aria-keyshortcuts="+" disabled={props.bet !== null || !props.canBetUp} onClick={() => props.onBet(1)}>
            <Icon name="add" size={20} />
          </button>
        </div>
        <button
          type="button"
          className={`spin${props.spinning ? ' spin--busy' : ''}`}
          disabled={props.spin !== null}
          aria-keyshortcuts="Space"
          aria-describedby={spinHint ? 'spin-hint' : undefined}
          onClick={props.onSpin}
        >
          <span className="spin__ring" aria-hidden="true" />
          <span className="spin__label">{t('game.spin')}</span>
        </button>
        <div className="deck__side">
          {props.autoplayShown ? (
            <button
              type="button"
              className="deck__pill"
              aria-pressed={props.autoplayOn}
              aria-keyshortcuts="A"
              disabled={props.autoplay !== null}
              onClick={props.onAutoplay}
            >
              <Icon name="autorenew" size={18} />
              {t('game.autoplay')}
            </button>
          ) : null}
          <button type="button" className="deck__pill deck__pill--cash" disabled={props.cashOut !== null} onClick={props.onCashOut}>
            <Icon name="payments" size={18} />
            {t('game.cashout')}
          </button>
        </div>
      </div>
      <p id="spin-hint" className="deck__hint" aria-live="polite">
        {spinHint ?? '\u00a0'}
      </p>
    </section>
  );
}
