import { Code } from '@reel/protocol/client';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { setupI18n, setupSettings } from '@/testing/test-utils';
import { LoginForm } from './login-form';

beforeAll(async () => {
  setupSettings();
  await setupI18n('en');
});

function renderForm(submit = vi.fn().mockResolvedValue(undefined)) {
  render(<LoginForm submit={submit} />);
  return {
    submit,
    username: screen.getByLabelText('Email or username'),
    password: screen.getByLabelText('Password'),
    button: screen.getByRole('button', { name: 'Login' }),
  };
}

describe('LoginForm validation', () => {
  it('keeps submit disabled until both fields hold at least 4 characters', async () => {
    const user = userEvent.setup();
    const { username, password, button } = renderForm();
    expect(button).toBeDisabled();
    await user.type(username, 'dem');
    expect(await screen.findByText('Min character length is 4')).toBeInTheDocument();
    expect(username).toHaveAttribute('aria-invalid', 'true');
    await user.type(username, 'o');
    await user.type(password, 'abc');
    expect(button).toBeDisabled();
    await user.type(password, 'd');
    expect(screen.queryByText('Min character length is 4')).not.toBeInTheDocument();
    expect(button).toBeEnabled();
  });

  it('shows "required" when a field is emptied', async () => {
    const user = userEvent.setup();
    const { username } = renderForm();
    await user.type(username, 'demo');
    await user.clear(username);
    expect(await screen.findByText('You must enter your email or username')).toBeInTheDocument();
  });

  it('submits trimmed username, password and remember me', async () => {
    const user = userEvent.setup();
    const { username, password, submit } = renderForm();
    await user.type(username, '  demo ');
    await user.type(password, 'demo1234{Enter}');
    expect(submit).toHaveBeenCalledWith({ username: 'demo', password: 'demo1234', remember: true });
  });

  it('places a wrong-password answer on the password input with its parameters', async () => {
    const user = userEvent.setup();
    const submit = vi.fn().mockRejectedValue(new ApiError(Code.LoginIncorrect, 'x', 401, { left_count: 2, block_time: 15 }));
    const { username, password } = renderForm(submit);
    await user.type(username, 'demo');
    await user.type(password, 'wrong-one{Enter}');
    expect(await screen.findByText('Incorrect username or password; remaining rights 2, blocked for 15 minutes')).toBeInTheDocument();
    expect(password).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows account-level codes above the form and falls back to the server text for unknown codes', async () => {
    const user = userEvent.setup();
    const submit = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(Code.LoginBanned, 'banned', 403))
      .mockRejectedValueOnce(new ApiError(99999, 'Server says no', 400));
    const { username, password, button } = renderForm(submit);
    await user.type(username, 'demo');
    await user.type(password, 'demo1234');
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent('You have been banned');
    await user.click(button);
    expect(await screen.findByText('Server says no')).toBeInTheDocument();
  });

  it('uses the Turkish texts by default language', async () => {
    await setupI18n('tr');
    const user = userEvent.setup();
    render(<LoginForm submit={vi.fn()} />);
    await user.type(screen.getByLabelText('E-posta veya kullanıcı adı'), 'ab');
    expect(await screen.findByText('En az 4 karakter olmalıdır')).toBeInTheDocument();
    await setupI18n('en');
  });
});
