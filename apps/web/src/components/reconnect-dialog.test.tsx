import { render, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReconnectVariant } from '@/lib/reconnect-rules';
import { setupI18n } from '@/testing/test-utils';
import { ReconnectDialog } from './reconnect-dialog';

beforeAll(async () => {
  await setupI18n('en');
});

/** Spec section 4, one row per variant: the wording and the choices besides going back to the lobby. */
const RECONNECT_RULES: [ReconnectVariant, string, string[]][] = [
  ['in_bonus', 'Lucky 3 is waiting for you in a bonus game. Do you want to continue?', ['Cancel and rejoin', 'Cashout', 'Continue']],
  ['waiting', 'Lucky 3 is waiting for you. Do you want to reconnect?', ['Cancel and rejoin', 'Cashout', 'Continue']],
  ['in_game', 'Lucky 3 is being played. If it is not you, please contact support.', ['Kick the player']],
  ['cashing_out', 'Lucky 3 is trying to cash out.', ['Wait']],
  ['error', 'Lucky 3 reported an error or a malfunction.', ['Wait']],
  ['offline', 'Lucky 3 is offline.', ['Wait']],
  ['unknown', 'Please wait for technical help.', ['Wait']],
];

const buttonNames = (dialog: HTMLElement) => within(dialog).getAllByRole('button').map((button) => button.textContent);

describe('the reconnect dialog, one rule per variant', () => {
  it.each(RECONNECT_RULES)('%s: says what the machine does and offers only what makes sense', (variant, text, choices) => {
    render(<ReconnectDialog open variant={variant} name="Lucky 3" busy={false} onAction={vi.fn()} onLobby={vi.fn()} />);
    const dialog = screen.getByRole('alertdialog', { name: 'You have an open session' });
    expect(dialog).toHaveTextContent(text);
    expect(buttonNames(dialog)).toEqual(['Return to lobby', ...choices]);
  });
});
