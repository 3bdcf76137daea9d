import type { FloorMachine } from '@reel/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast-store';
import { adminApi, fillPath } from '../lib/admin-api';
import { AdminFloorPath } from '../lib/contract';
import { ReasonDialog } from '../components/reason-dialog';
import { LiveVideoDialog } from './live-video-dialog';

type FloorAction = 'kick' | 'cashOut' | 'outOfServiceAction' | 'backInService' | 'emergencyStop' | 'release';

/** Each action's call; the floor's push shows its effect, so nothing is written locally. */
function send(action: FloorAction, machineId: number, reason: string): Promise<unknown> {
  const path = (template: string) => fillPath(template, { machineId });
  switch (action) {
    case 'kick':
      return adminApi.post(path(AdminFloorPath.kick), { reason });
    case 'cashOut':
      return adminApi.post(path(AdminFloorPath.cashOut), { reason });
    case 'outOfServiceAction':
    case 'backInService':
      return adminApi.put(path(AdminFloorPath.service), { inService: action === 'backInService', reason });
    case 'emergencyStop':
    case 'release':
      return adminApi.put(path(AdminFloorPath.emergencyStop), { stopped: action === 'emergencyStop', reason });
  }
}

/** The actions that apply to the machine as it is now (kick and cash out need a session). */
function offered(machine: FloorMachine): FloorAction[] {
  const actions: FloorAction[] = machine.session ? ['kick', 'cashOut'] : [];
  actions.push(machine.outOfService === null ? 'outOfServiceAction' : 'backInService');
  actions.push(machine.emergencyStop ? 'release' : 'emergencyStop');
  return actions;
}

export function MachineActions({ machine }: { machine: FloorMachine }) {
  const { t } = useTranslation('admin');
  const [open, setOpen] = useState<FloorAction | null>(null);
  const [watching, setWatching] = useState(false);
  return (
    <div className="admin-actions">
      {offered(machine).map((action) => (
        <Button
          key={action}
          className="btn--small"
          variant={action === 'emergencyStop' ? 'danger' : 'secondary'}
          aria-label={`${t(`floor.${action}`)}: ${machine.name}`}
          onClick={() => setOpen(action)}
        >
          {t(`floor.${action}`)}
        </Button>
      ))}
      <Button className="btn--small" variant="ghost" aria-label={`${t('floor.video')}: ${machine.name}`} onClick={() => setWatching(true)}>
        {t('floor.video')}
      </Button>
      {open ? (
        <ReasonDialog
          title={t('floor.confirmTitle', { action: t(`floor.${open}`), name: machine.name })}
          confirmLabel={t(`floor.${open}`)}
          danger={open === 'emergencyStop' || open === 'kick'}
          onConfirm={async (reason) => {
            await send(open, machine.machineId, reason);
            toast.success(t('common.done'));
          }}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {watching ? <LiveVideoDialog machine={machine} onClose={() => setWatching(false)} /> : null}
    </div>
  );
}
