import type { ContactStatus as ContactStatusValue, StaffChatStatus } from '@reel/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '@/components/ui/form-alert';
import { adminApi } from '../lib/admin-api';
import { AdminChatPath, ContactStatus } from '../lib/contract';
import { errorText } from '../components/reason-dialog';

const STATUSES = ContactStatus.anyOf.map((literal) => literal.const);

/**
 * My own status for the players' support desk. The contract answers a status only when it is set
 * (no read of the current one), so the choice starts empty until this operator picks one.
 */
export function StaffStatusSelect() {
  const { t } = useTranslation('admin');
  const [status, setStatus] = useState<StaffChatStatus | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function choose(next: ContactStatusValue) {
    setError(null);
    try {
      setStatus(await adminApi.put<StaffChatStatus>(AdminChatPath.status, { status: next }));
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  return (
    <div className="admin-toolbar">
      <label className="admin-select">
        {t('support.myStatus')}
        <select value={status?.status ?? ''} onChange={(event) => void choose(event.target.value as ContactStatusValue)}>
          <option value="" disabled>
            —
          </option>
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {t(`support.statuses.${value}`)}
            </option>
          ))}
        </select>
      </label>
      {status ? <span className="admin-muted">{t('support.deskStatus', { status: t(`support.statuses.${status.deskStatus}`) })}</span> : null}
      <FormAlert>{error}</FormAlert>
    </div>
  );
}
