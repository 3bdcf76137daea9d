import type { AdminMoneyResponse, AdminPlayerActionResponse, AdminPlayerSummary } from '@reel/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { toast } from '@/lib/toast-store';
import { adminApi, fillPath, newIdempotencyKey } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { isAdmin } from '../lib/permissions';
import { useOperatorSession } from '../lib/operator-session';
import { useAdminFormat } from '../lib/use-admin-format';
import { ReasonDialog } from '../components/reason-dialog';

type PlayerAction = 'deposit' | 'withdraw' | 'ban' | 'unban' | 'resetPassword' | 'setPin' | 'unlock';

const ACTION_PATH: Record<PlayerAction, string> = {
  deposit: AdminPath.playerDeposit,
  withdraw: AdminPath.playerWithdraw,
  ban: AdminPath.playerBan,
  unban: AdminPath.playerUnban,
  resetPassword: AdminPath.playerPassword,
  setPin: AdminPath.playerPin,
  unlock: AdminPath.playerUnlock,
};

/** "12.50" or "12,50" in the currency's main unit, as integer cents; null when not a positive amount. */
export function parseCents(text: string): number | null {
  const normalised = text.trim().replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(normalised)) return null;
  const cents = Math.round(Number(normalised) * 100);
  return cents > 0 ? cents : null;
}

/** Which of the player's actions make sense now; the server still decides each. */
function offeredActions(player: AdminPlayerSummary, admin: boolean): PlayerAction[] {
  const actions: PlayerAction[] = admin ? ['deposit', 'withdraw'] : [];
  actions.push(player.banned ? 'unban' : 'ban');
  if (player.locked) actions.push('unlock');
  // Money corrections and credentials are the admin's (the server's ADMIN_ONLY routes).
  if (admin) actions.push('resetPassword', 'setPin');
  return actions;
}

function ActionDialog({ player, action, onClose }: { player: AdminPlayerSummary; action: PlayerAction; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const format = useAdminFormat();
  const currency = useRuntimeSettings((state) => state.settings.CURRENCY);
  const [value, setValue] = useState('');
  // One key per dialog: a retry after a lost answer moves the money once (the server replays it).
  const [idempotencyKey] = useState(newIdempotencyKey);
  const money = action === 'deposit' || action === 'withdraw';
  const path = fillPath(ACTION_PATH[action], { id: player.id });

  function validate(): string | null {
    if (money && parseCents(value) === null) return t('player.amountInvalid');
    return null;
  }

  async function confirm(reason: string) {
    if (money) {
      const answer = await adminApi.post<AdminMoneyResponse>(path, { amount: parseCents(value), reason }, idempotencyKey);
      toast.success(
        answer.replayed
          ? t('player.moneyReplayed', { id: answer.operation_id })
          : t('player.moneyDone', { id: answer.operation_id, balance: format.money(answer.wallet.balance) }),
      );
    } else {
      const body = action === 'resetPassword' ? { password: value, reason } : action === 'setPin' ? { pin: value, reason } : { reason };
      const answer = await adminApi.post<AdminPlayerActionResponse>(path, body);
      toast.success(t('player.signedOut', { count: answer.signed_out }));
    }
    await queryClient.invalidateQueries({ queryKey: ['admin', 'player', player.id] });
  }

  const field =
    action === 'deposit' || action === 'withdraw' ? (
      <TextField label={t('player.amountLabel', { currency })} inputMode="decimal" value={value} onChange={(event) => setValue(event.target.value)} />
    ) : action === 'resetPassword' ? (
      <TextField label={t('player.newPassword')} type="password" autoComplete="new-password" value={value} onChange={(event) => setValue(event.target.value)} />
    ) : action === 'setPin' ? (
      <TextField label={t('player.newPin')} inputMode="numeric" value={value} onChange={(event) => setValue(event.target.value)} />
    ) : null;

  return (
    <ReasonDialog
      title={`${t(`player.${action}`)}: ${player.username}`}
      confirmLabel={t(`player.${action}`)}
      danger={action === 'ban' || action === 'withdraw'}
      validate={validate}
      onConfirm={confirm}
      onClose={onClose}
    >
      {field}
    </ReasonDialog>
  );
}

/** The player's actions, each asking for its reason (and amount, password or PIN) in a dialog. */
export function PlayerActions({ player }: { player: AdminPlayerSummary }) {
  const { t } = useTranslation('admin');
  const operator = useOperatorSession((state) => state.operator);
  const [open, setOpen] = useState<PlayerAction | null>(null);
  return (
    <div className="admin-actions">
      {offeredActions(player, isAdmin(operator)).map((action) => (
        <Button key={action} variant={action === 'ban' ? 'danger' : 'secondary'} onClick={() => setOpen(action)}>
          {t(`player.${action}`)}
        </Button>
      ))}
      {open ? <ActionDialog player={player} action={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}
