/**
 * The template's demo pages and the documentation page (issue 25): each shows what its name
 * promises, built from the product's own parts, and none the old shared placeholder sentence.
 */
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ICON_NAMES } from '@/components/ui/icon';
import { templateDemoPaths } from '@/config/paths';
import { useAuthStore } from '@/lib/auth-store';
import { changeLanguage } from '@/lib/i18n';
import { demoPlayer, mockFetch, setupI18n, setupSettings } from '@/testing/test-utils';
import { createRoutes } from './router';

const player = { ...demoPlayer, hasPin: true };

beforeAll(async () => {
  setupSettings({ PIN_CHECK: true, SUPPORT_PHONE: '+90 212 000 00 00' });
  await setupI18n('en');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  useAuthStore.setState({ status: 'checking', user: null, token: null, wallet: null, redirectPath: null });
  await changeLanguage('en');
});

function renderAt(path: string) {
  mockFetch({
    'GET /api/machine/all': () => ({ body: [] }),
    'GET /api/machine/brands': () => ({ body: [] }),
    'GET /api/player/profile': () => ({ status: 500, body: { status: false, code: 50000 } }),
  });
  useAuthStore.setState({ status: 'authenticated', user: player, token: 'token' });
  const router = createMemoryRouter(createRoutes(), { initialEntries: [path] });
  const { unmount } = render(<RouterProvider router={router} />);
  return { router, unmount };
}

const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name });

describe('the template demo pages', () => {
  it.each([
    ['/pages/auth/login', 'Signing in', 'You are signed in as Demo Player.'],
    ['/pages/auth/login-3', 'Signing in', 'after five wrong passwords'],
    ['/pages/auth/register-2', 'Opening an account', 'Support: +90 212 000 00 00'],
    ['/pages/auth/forgot-password', 'Changing or resetting your password', 'at least 8 characters'],
    ['/pages/auth/reset-password-2', 'Changing or resetting your password', 'every device is signed out'],
    ['/pages/auth/lock', 'Screen lock', 'You have a PIN.'],
    ['/pages/auth/mail-confirm', 'E-mail confirmation', 'Reel Live sends no e-mail'],
    ['/pages/coming-soon', 'Coming soon', 'the machines are waiting for you in the lobby'],
  ])('%s says how the product does it', async (path, title, fact) => {
    renderAt(path);
    await heading(title);
    expect(screen.getByText(fact, { exact: false })).toBeInTheDocument();
  });

  it('sends the password pages to the real change-password form and reset procedure', async () => {
    renderAt('/pages/auth/forgot-password-2');
    await heading('Changing or resetting your password');
    expect(screen.getByRole('link', { name: 'Change password' })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('link', { name: /password reset procedure/ })).toHaveAttribute('href', '/info/password-reset.html');
  });

  it("/pages/profile is the player's real profile page", async () => {
    renderAt('/pages/profile');
    expect(await heading('Profile')).toBeInTheDocument();
    expect(await screen.findByText('The profile could not be loaded.')).toBeInTheDocument();
  });

  it('the search pages search the menu and the information pages, as a list or as tiles', async () => {
    const user = userEvent.setup();
    renderAt('/pages/search/classic');
    await heading('Classic search');
    await user.type(screen.getByRole('searchbox', { name: 'Search the menu and the information pages' }), ' TRANS ');
    expect(screen.getByRole('status')).toHaveTextContent('1 results');
    expect(within(screen.getByRole('list')).getByRole('link', { name: 'Transactions' })).toHaveAttribute('href', '/transactions');
    await user.clear(screen.getByRole('searchbox'));
    await user.type(screen.getByRole('searchbox'), 'policy');
    expect(screen.getByRole('link', { name: /Privacy Policy/ })).toHaveAttribute('href', '/info/privacy.html?lang=en');
    await user.clear(screen.getByRole('searchbox'));
    await user.type(screen.getByRole('searchbox'), 'zzz');
    expect(screen.getByRole('status')).toHaveTextContent('No results..');
  });

  it('the modern search shows tiles', async () => {
    const user = userEvent.setup();
    renderAt('/pages/search/modern');
    await heading('Modern search');
    await user.type(screen.getByRole('searchbox'), 'game');
    expect(document.querySelectorAll('.search-page__tile').length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Game Sessions' })).toHaveAttribute('href', '/slot-sessions');
  });

  it.each([
    ['/ui/page-layouts/carded/full-width', 'Page layout: Carded, full width', { card: true, sidebar: false, tabs: false }],
    ['/ui/page-layouts/carded/left-sidebar-tabbed', 'Page layout: Carded, left sidebar, tabbed', { card: true, sidebar: true, tabs: true }],
    ['/ui/page-layouts/simple/right-sidebar', 'Page layout: Simple, right sidebar', { card: false, sidebar: true, tabs: false }],
    ['/ui/page-layouts/simple/tabbed', 'Page layout: Simple, full width, tabbed', { card: false, sidebar: false, tabs: true }],
    ['/ui/page-layouts/blank', 'Page layout: Blank', { card: false, sidebar: false, tabs: false }],
  ])('%s is that layout, filled with the player guide', async (path, title, shape) => {
    renderAt(path);
    await heading(title);
    expect(screen.queryAllByRole('tab').length > 0).toBe(shape.tabs);
    expect(screen.queryByRole('navigation', { name: 'Contents' }) !== null).toBe(shape.sidebar);
    expect(document.querySelector('.page-layout__content.card') !== null).toBe(shape.card);
    expect(screen.getByRole('heading', { name: 'The lobby' })).toBeInTheDocument();
    if (shape.tabs) {
      await userEvent.setup().click(screen.getByRole('tab', { name: 'Cashing out' }));
      expect(screen.getByRole('tabpanel')).toHaveTextContent("Cash out brings the machine's credits back to your balance.");
    }
  });

  it('/ui/icons lists every icon the app draws, with a filter', async () => {
    renderAt('/ui/icons');
    await heading('Icons');
    expect(document.querySelectorAll('.icon-grid__item')).toHaveLength(ICON_NAMES.length);
    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Filter icons' }), 'volume');
    expect([...document.querySelectorAll('.icon-grid__item code')].map((code) => code.textContent)).toEqual(['volumeUp', 'volumeOff']);
  });

  it('/ui/typography and /ui/helper-classes show the type and the classes the app uses', async () => {
    const typography = renderAt('/ui/typography');
    await heading('Typography');
    expect(screen.getByText('₺1.234,56')).toBeInTheDocument();
    typography.unmount();
    renderAt('/ui/helper-classes');
    await heading('Helper classes');
    expect(screen.getByText('.visually-hidden')).toBeInTheDocument();
    expect(screen.getByText("Text in the theme's accent colour.")).toHaveClass('text-accent');
  });

  // One test per page: each gets its own time budget (a loaded 2-core machine renders ~20 pages slowly).
  it.each(templateDemoPaths)('%s shows its own content, not a shared placeholder', async (path) => {
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(/has no content in this product/)).toBeNull();
  });
});

describe('the documentation page', () => {
  it('explains the product to a player and links the API docs on the backend', async () => {
    renderAt('/documentation');
    await heading('Documentation');
    expect(screen.getByRole('heading', { name: 'Player guide' })).toBeInTheDocument();
    for (const section of ['The lobby', 'Playing a machine', 'Credits', 'Spinning', 'Cashing out', 'When the connection drops', 'Your account'])
      expect(screen.getByRole('heading', { name: section })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Open the API documentation/ })).toHaveAttribute('href', `${window.location.origin}/api/docs`);
    expect(screen.getByRole('link', { name: /Game Rules and Content/ })).toHaveAttribute('href', '/info/game-rules.html?lang=en');
  });

  it('switches language with the app, without a download', async () => {
    renderAt('/documentation');
    await heading('Documentation');
    await act(() => changeLanguage('tr'));
    expect(await heading('Belgeler')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Oyuncu rehberi' })).toBeInTheDocument();
  });
});
