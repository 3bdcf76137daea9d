import { useTranslation } from 'react-i18next';
import { JackpotPools } from './jackpot-pools';
import { LedgerAccounts } from './ledger-accounts';
import { LedgerAudit } from './ledger-audit';
import { LedgerTransfers } from './ledger-transfers';

/** The ledger's accounts and transfers, the ledger audit with its result, and the jackpot pools. */
export function MoneyPage() {
  const { t } = useTranslation('admin');
  return (
    <section className="admin-page">
      <h1>{t('money.heading')}</h1>
      <LedgerAudit />
      <JackpotPools />
      <LedgerAccounts />
      <LedgerTransfers />
    </section>
  );
}
