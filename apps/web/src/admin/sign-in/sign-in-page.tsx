import type { AdminLoginResponse } from '@reel/protocol';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { adminApi } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { signInOperator } from '../lib/operator-session';
import { errorText } from '../components/reason-dialog';
import { AdminLanguageSelect } from '../components/admin-language-select';

/** The operator's sign-in: an account of its own, never a player's; refusals are catalogue texts. */
export function SignInPage() {
  const { t } = useTranslation('admin');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ username?: string; password?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing = {
      username: username.trim() ? undefined : t('signIn.usernameRequired'),
      password: password ? undefined : t('signIn.passwordRequired'),
    };
    setFieldErrors(missing);
    if (missing.username || missing.password) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await adminApi.post<AdminLoginResponse>(AdminPath.login, { username: username.trim(), password });
      signInOperator(answer.token, answer.operator);
    } catch (failure) {
      setError(errorText(failure));
      setBusy(false);
    }
  }

  return (
    <main className="admin-sign-in">
      <form className="admin-sign-in__card admin-form" onSubmit={(event) => void submit(event)} noValidate>
        <h1>{t('title')}</h1>
        <h2>{t('signIn.heading')}</h2>
        <TextField
          label={t('signIn.username')}
          autoComplete="username"
          value={username}
          error={fieldErrors.username}
          onChange={(event) => setUsername(event.target.value)}
        />
        <TextField
          label={t('signIn.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          error={fieldErrors.password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FormAlert>{error}</FormAlert>
        <Button type="submit" fullWidth busy={busy}>
          {t('signIn.submit')}
        </Button>
        <AdminLanguageSelect />
      </form>
    </main>
  );
}
