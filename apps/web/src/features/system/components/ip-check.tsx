import type { CheckResponse } from '@reel/protocol/client';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/icon';
import { useRuntimeSettings } from '@/config/runtime-settings';
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
 * The server's IP policy (its `IP_CHECK`) is the only switch, and Settings.json reports it as
 * `IP_CHEKCING`. While it is on the app waits for `/check` and shows what it answers (the blocked
 * screen, or the network alert when it cannot be asked). While it is off there is nothing to wait
 * for: the app opens at once and never asks, so a failing `/check` cannot stop a player
 * (docs/spec-decisions.md).
 */
export function IpCheckGate({ children }: { children: ReactNode }) {
  const policyOn = useRuntimeSettings((settings) => settings.settings.IP_CHEKCING);
  if (!policyOn) return <>{children}</>;
  return <PolicyGate>{children}</PolicyGate>;
}

function PolicyGate({ children }: { children: ReactNode }) {
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
