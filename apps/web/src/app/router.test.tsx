import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { demoPlayer, mockFetch, setupI18n, setupSettings } from '@/testing/test-utils';
import { createRoutes } from './router';

const player = demoPlayer;

beforeAll(async () => {
  setupSettings();
  await setupI18n('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
  useAuthStore.setState({ status: 'checking', user: null, token: null, wallet: null, redirectPath: null });
});

function signIn(roles: string[] = ['user']) {
  useAuthStore.setState({ status: 'authenticated', user: { ...player, roles }, token: 'token' });
}

function signOut() {
  useAuthStore.setState({ status: 'guest', user: null, token: null });
}

function renderAt(path: string) {
  mockFetch({
    'GET /api/machine/all': () => ({ body: [] }),
    'GET /api/machine/brands': () => ({ body: [] }),
    'GET /api/player/profile': () => ({ status: 500, body: { status: false, code: 50000 } }),
  });
  const router = createMemoryRouter(createRoutes(), { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

describe('route access (spec sections 2 and 6)', () => {
  it('sends a guest to /login and keeps the target', async () => {
    signOut();
    const router = renderAt('/profile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(useAuthStore.getState().redirectPath).toBe('/profile');
    expect(await screen.findByRole('heading', { name: 'Sign in to your account' })).toBeInTheDocument();
  });

  it('after sign-in the guest-only login page sends the player to the saved target', async () => {
    signOut();
    const router = renderAt('/slot-sessions');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    act(() => signIn());
    await waitFor(() => expect(router.state.location.pathname).toBe('/slot-sessions'));
  });

  it('sends a signed-in player away from admin and staff pages, to / and then /lobby', async () => {
    signIn();
    const router = renderAt('/auth/admin-role-example');
    await waitFor(() => expect(router.state.location.pathname).toBe('/lobby'), { timeout: 5000 });
    expect(await screen.findByRole('heading', { name: 'Choose a Slot Group' })).toBeInTheDocument();
  });

  it('lets staff see the staff page but not the admin page', async () => {
    signIn(['staff', 'user']);
    const router = renderAt('/auth/staff-role-example');
    expect(await screen.findByText('This page is only visible to admin and staff.')).toBeInTheDocument();
    await act(() => router.navigate('/auth/admin-role-example'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/lobby'));
  });

  it('shows the guest example to guests only', async () => {
    signOut();
    renderAt('/auth/guest-role-example');
    expect(await screen.findByText('This page is only visible to guests.')).toBeInTheDocument();
  });

  it('redirects /, /game and unknown paths', async () => {
    signIn();
    const router = renderAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/lobby'));
    await act(() => router.navigate('/game'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/lobby'));
    await act(() => router.navigate('/no/such/page'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/errors/error-404'));
    expect(await screen.findByText('Sorry but we could not find the page you are looking for')).toBeInTheDocument();
  });

  it('never redirects back to /logout after a denied check', async () => {
    signOut();
    useAuthStore.setState({ redirectPath: '/logout' });
    signIn();
    const router = renderAt('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/lobby'));
  });

  it('shows a splash while the stored token is checked', async () => {
    useAuthStore.setState({ status: 'checking' });
    renderAt('/lobby');
    expect((await screen.findAllByRole('status')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  });
});
