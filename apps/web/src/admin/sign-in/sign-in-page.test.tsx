import { Code } from '@reel/protocol/client';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockFetch } from '@/testing/test-utils';
import { useOperatorSession } from '../lib/operator-session';
import { adminOperator, bodyOf, renderAdmin, setupAdminTests } from '../testing/render-admin';
import { stubWebSocket } from '../testing/fake-socket';

beforeAll(() => setupAdminTests());

describe('Console sign-in', () => {
  it('signs in with the operator account and opens the floor, keeping the token for /api/admin only', async () => {
    const calls = mockFetch({
      'POST /api/admin/auth/login': (_url, init) => {
        expect(bodyOf(init)).toEqual({ username: 'boss', password: 'pw-123456' });
        return { body: { status: true, token: 'op-1', operator: adminOperator } };
      },
      'GET /api/admin/floor': () => ({ body: { machines: [], at: new Date().toISOString() } }),
    });
    stubWebSocket();
    renderAdmin('/admin', null);
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Username'), ' boss ');
    await user.type(screen.getByLabelText('Password'), 'pw-123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Floor' })).toBeInTheDocument();
    expect(screen.getByText('boss (admin)')).toBeInTheDocument();
    expect(useOperatorSession.getState().token).toBe('op-1');
    expect(window.sessionStorage.getItem('reel_operator_token')).toBe('op-1');
    // The player's token is never touched.
    expect(window.localStorage.getItem('jwt_access_token')).toBeNull();
    expect(calls).toHaveBeenCalled();
  });

  it("shows the server's refusal as the catalogue's text (a player's account, a disabled operator)", async () => {
    let answer: { status: number; body: { status: false; code: number; ErrorMessage: string; Params?: Record<string, number> } } = {
      status: 401,
      body: { status: false, code: Code.LoginIncorrect, ErrorMessage: 'x', Params: { left_count: 2, block_time: 15 } },
    };
    mockFetch({ 'POST /api/admin/auth/login': () => answer });
    renderAdmin('/admin', null);
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Username'), 'demo');
    await user.type(screen.getByLabelText('Password'), 'demo1234');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect username or password; remaining rights 2, blocked for 15 minutes');
    answer = { status: 403, body: { status: false, code: Code.OperatorDisabled, ErrorMessage: 'x' } };
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('This operator account is disabled')).toBeInTheDocument();
    expect(useOperatorSession.getState().token).toBeNull();
  });

  it('asks for both fields before calling the server', async () => {
    const calls = mockFetch({});
    renderAdmin('/admin', null);
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Enter your username')).toBeInTheDocument();
    expect(screen.getByText('Enter your password')).toBeInTheDocument();
    expect(calls).not.toHaveBeenCalled();
  });

  it('speaks Turkish when the operator picks it', async () => {
    mockFetch({});
    renderAdmin('/admin', null);
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Turkish' }));
    expect(await screen.findByRole('heading', { name: 'Operatör girişi' })).toBeInTheDocument();
    expect(screen.getByLabelText('Kullanıcı adı')).toBeInTheDocument();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'İngilizce' }));
    expect(await screen.findByRole('heading', { name: 'Operator sign-in' })).toBeInTheDocument();
  });

  it('goes back to sign-in when the server no longer takes the token (401)', async () => {
    mockFetch({
      'GET /api/admin/players': () => ({ status: 401, body: { status: false, code: Code.AccessTokenExpired, ErrorMessage: 'x' } }),
    });
    renderAdmin('/admin/players');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(useOperatorSession.getState().token).toBeNull();
  });
});
