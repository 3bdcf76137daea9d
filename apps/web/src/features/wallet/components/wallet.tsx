import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { IconButton } from '@/components/ui/button';
import { useAuthStore, type Wallet } from '@/lib/auth-store';
import { local, StorageKey } from '@/lib/storage';
import { useMoney } from '@/lib/use-money';

interface WalletVisibility {
  visible: boolean;
  toggle: () => void;
}

const useWalletVisibility = create<WalletVisibility>((set, get) => ({
  visible: local.get(StorageKey.walletVisible) !== '0',
  toggle: () => {
    const visible = !get().visible;
    local.set(StorageKey.walletVisible, visible ? '1' : '0');
    set({ visible });
  },
}));

/** Ledger parts in the spec's colour order (section 9: discount, bonus, credit, cash). */
const WALLET_PARTS = [
  { key: 'cash', label: 'toolbar.cash' },
  { key: 'credit', label: 'toolbar.credit' },
  { key: 'bonus', label: 'toolbar.bonusPart' },
  { key: 'discount', label: 'toolbar.discountPart' },
] as const;

function visibleParts(wallet: Wallet | null) {
  if (!wallet) return [];
  return WALLET_PARTS.filter((part) => typeof wallet[part.key] === 'number' && wallet[part.key] > 0);
}

export function WalletToggle() {
  const { t } = useTranslation();
  const { visible, toggle } = useWalletVisibility();
  return (
    <IconButton
      icon={visible ? 'visibility' : 'visibilityOff'}
      label={visible ? t('toolbar.hideBalance') : t('toolbar.showBalance')}
      pressed={!visible}
      onClick={toggle}
    />
  );
}

/** Toolbar balance: total plus its ledger parts when the server reports more than one. */
export function WalletBalance() {
  const { t } = useTranslation();
  const wallet = useAuthStore((state) => state.wallet);
  const visible = useWalletVisibility((state) => state.visible);
  const format = useMoney();
  const parts = visibleParts(wallet);
  const total = wallet ? format(wallet.balance) : '—';
  return (
    <div className="wallet" aria-live="polite">
      <span className="visually-hidden">{t('toolbar.balance')}: </span>
      <span className="wallet__total" data-testid="wallet-total">
        {visible ? total : t('toolbar.hiddenBalance')}
      </span>
      {visible && parts.length > 1 ? (
        <span className="wallet__parts">
          {parts.map((part) => (
            <span
              key={part.key}
              className={`wallet__part ledger-${part.key}`}
              title={`${t(part.label)}: ${format(wallet![part.key])}`}
            >
              <span className="wallet__dot" aria-hidden="true" />
              <span className="visually-hidden">
                {t(part.label)}: {format(wallet![part.key])}
              </span>
            </span>
          ))}
        </span>
      ) : null}
    </div>
  );
}

/** The navbar's 'current balance' block with the ledger breakdown. */
export function BalanceSummary() {
  const { t } = useTranslation();
  const wallet = useAuthStore((state) => state.wallet);
  const visible = useWalletVisibility((state) => state.visible);
  const format = useMoney();
  return (
    <div className="balance-summary">
      <span className="balance-summary__label">{t('navbar.currentBalance')}</span>
      <span className="balance-summary__value">
        {visible ? (wallet ? format(wallet.balance) : '—') : t('toolbar.hiddenBalance')}
      </span>
      {visible && wallet ? (
        <ul className="balance-summary__parts">
          {visibleParts(wallet).map((part) => (
            <li key={part.key} className={`ledger-${part.key}`}>
              <span className="wallet__dot" aria-hidden="true" />
              {t(part.label)} <strong>{format(wallet[part.key])}</strong>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
