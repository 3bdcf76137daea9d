import { ConnectionLostNotice } from '@/features/system';
import { IdleLock } from '@/features/lock';
import { QueueReadyCheck } from '@/features/queue';
import { SessionNotices } from '@/features/session';

/** Everything a signed-in player needs on every screen; loaded only after sign-in. */
export default function SignedInOverlays() {
  return (
    <>
      <ConnectionLostNotice />
      <SessionNotices />
      <QueueReadyCheck />
      <IdleLock />
    </>
  );
}
