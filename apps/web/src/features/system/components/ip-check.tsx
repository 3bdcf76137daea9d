import type { CheckResponse } from '@reel/protocol/client';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/icon';
import { getIpCheck } from '../api/get-ip-check';

type CheckState =
  | { phase: 'checking' }
  | { phase: 'allowed' }
  | { phase: 'blocked'; ip: string; country: string }
  | { phase: 'network' };

/** Spec section 4: allowed when status is 1 or the code is non-zero; anything else is blocked. */
function isCheckAllowed(response: Pick<CheckResponse, 'status' | 'code'>): boolean {
  return response.status === 1 || response.code !== 0;
}

function IpCheckScreen({ state }: { state: CheckState }) {
  const { t } = useTranslation();
  return (
    <main className="center-screen" id="main">
      <div className="card card--narrow center-text">
        {state.phase === 'checking' ? (
          <>
            <span className="spinner" aria-hidden="true" />
            <p role="status">{t('ipCheck.checking')}</p>
          </>
        ) : state.phase === 'blocked' ? (
          <>
            <Icon name="lock" size={48} className="text-warning" />
            <p role="alert">{t('ipCheck.blocked', { country: state.country, ip: state.ip })}</p>
          </>
        ) : (
          <p role="alert">{t('common.networkAlert')}</p>
        )}
      </div>
    </main>
  );
}

/**
 * The server's IP policy (its `IP_CHECK`) is the only switch: the app always asks `/check`, which
 * answers status 1 for everyone while the policy is off. A client-side flag would let the web app
 * show a login form the server then refuses with 10703 (docs/spec-decisions.md).
 */
export function IpCheckGate({ children }: { children: ReactNode }) {
  const [state, setState] = useState<CheckState>({ phase: 'checking' });
  useEffect(() => {
    let cancelled = false;
    getIpCheck()
      .then((body) => {
        if (cancelled) return;
        setState(
          isCheckAllowed(body)
            ? { phase: 'allowed' }
            : { phase: 'blocked', ip: body.ip, country: body.country },
        );
      })
      .catch(() => {
        if (!cancelled) setState({ phase: 'network' });
      });
    return () => {
      cancelled = true;
    };
  }, []);
  if (state.phase === 'allowed') return <>{children}</>;
  return <IpCheckScreen state={state} />;
}
