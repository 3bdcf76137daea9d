import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18next } from '@/lib/i18n';
import { reconnectActions, type ReconnectVariant } from '@/lib/reconnect-rules';
import { setupI18n } from '@/testing/test-utils';
import type { GameScreen } from '../hooks/use-game-screen';
import { GameReconnectDialog } from './game-dialogs';

beforeAll(async () => {
  await setupI18n('en');
});

const VARIANTS: ReconnectVariant[] = ['in_bonus', 'waiting', 'in_game', 'cashing_out', 'error', 'offline', 'unknown'];

describe("the game screen's reconnect dialog", () => {
  it.each(VARIANTS)('%s: offers the rule of its variant, like the lobby, and each choice resumes with it', async (variant) => {
    const resume = vi.fn();
    const leave = vi.fn();
    const gameScreen = {
      interruption: { variant, name: 'Lucky 3' },
      resumeBusy: false,
      title: 'Lucky 3',
      actions: { resume, leave },
    } as unknown as GameScreen;
    render(<GameReconnectDialog screen={gameScreen} />);
    const dialog = screen.getByRole('alertdialog', { name: 'You have an open session' });
    const choices = reconnectActions(variant).map((action) => i18next.t(`reconnect.${action}`));
    expect(within(dialog).getAllByRole('button').map((button) => button.textContent)).toEqual(['Return to lobby', ...choices]);
    if (!['in_bonus', 'waiting'].includes(variant)) {
      for (const absent of ['Cancel and rejoin', 'Cashout', 'Continue']) expect(within(dialog).queryByRole('button', { name: absent })).toBeNull();
    }
    const user = userEvent.setup();
    for (const action of reconnectActions(variant)) {
      await user.click(within(dialog).getByRole('button', { name: i18next.t(`reconnect.${action}`) }));
      expect(resume).toHaveBeenLastCalledWith(action);
    }
    await user.click(within(dialog).getByRole('button', { name: 'Return to lobby' }));
    expect(leave).toHaveBeenCalledTimes(1);
  });
});
