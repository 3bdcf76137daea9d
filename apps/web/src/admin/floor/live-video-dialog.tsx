import type { FloorMachine, StreamGrant } from '@reel/protocol';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { VideoConnection, VideoStatus } from '@/lib/video';
import { adminApi, fillPath } from '../lib/admin-api';
import { AdminFloorPath } from '../lib/contract';
import { errorText } from '../components/reason-dialog';

/** One machine's live video on demand, on a staff grant (the player is not affected); closed with the dialog. */
export function LiveVideoDialog({ machine, onClose }: { machine: FloorMachine; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const video = useRef<HTMLVideoElement>(null);
  const [status, setStatus] = useState<VideoStatus>(VideoStatus.Idle);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const connection = new VideoConnection({
      video: video.current,
      // A fresh staff grant on every (re)connect, like the player's own stream grant.
      grant: () => adminApi.post<StreamGrant>(fillPath(AdminFloorPath.video, { machineId: machine.machineId })),
    });
    connection.on('status', setStatus);
    connection.connect().catch((failure: unknown) => setError(errorText(failure)));
    return () => connection.close();
  }, [machine.machineId]);
  return (
    <Dialog open title={t('floor.videoTitle', { name: machine.name })} onClose={onClose} closeLabel={t('common.close')} className="admin-video">
      <video ref={video} autoPlay muted playsInline className="admin-video__picture" />
      <p role="status" className="admin-muted">
        {t('floor.videoStatus', { status: t(`floor.videoStates.${status}`) })}
      </p>
      <FormAlert>{error}</FormAlert>
    </Dialog>
  );
}
