import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { GameRecall } from '@/features/history';
import type { GameScreen } from '../hooks/use-game-screen';
import { gameActions } from '../stores/game-store';
import { SessionFacts } from './meters';

/** The side panel: session facts, video quality, volume and the promotions. */
export function GameSidebar({ screen, promotions }: { screen: GameScreen; promotions?: ReactNode }) {
  const { t } = useTranslation();
  const { state, money, actions } = screen;
  return (
    <aside id="game-sidebar" className="game__sidebar" aria-label={t('game.sidebar')} hidden={!state.sidebar}>
      <div className="game__sidebar-head">
        <h2>{t('game.sidebar')}</h2>
        <IconButton
          icon="close"
          label={t('game.closeSidebar')}
          onClick={() => gameActions.set({ sidebar: false })}
        />
      </div>
      <SessionFacts session={state.session} money={money} />
      {state.session ? <GameRecall sessionId={state.session.sessionId} version={state.lastCycle?.gameId} /> : null}
      {state.bands.length > 0 ? (
        <fieldset className="bands">
          <legend>{t('game.quality')}</legend>
          {state.bands.map((band) => (
            <label
              key={band.id}
              className={`bands__option${band.id === state.activeBand ? ' bands__option--active' : ''}`}
            >
              <input
                type="radio"
                name="band"
                value={band.id}
                checked={band.id === state.activeBand}
                onChange={() => actions.setBand(band.id)}
              />
              <span>{band.name}</span>
              <span className="muted small">{band.bitrateKbps} kbit/s</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <label className="volume">
        <span>{t('game.volume')}</span>
        <input
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={state.volume}
          onChange={(event) =>
            gameActions.set({ volume: Number(event.target.value), muted: Number(event.target.value) === 0 })
          }
        />
      </label>
      {promotions ? <div className="game__promotions">{promotions}</div> : null}
      <p className="muted small">{t('game.shortcuts')}</p>
      <p className="game__responsible">
        <Icon name="info" size={16} />
        {t('game.responsible')}
      </p>
    </aside>
  );
}
