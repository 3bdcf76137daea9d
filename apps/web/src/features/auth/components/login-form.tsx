import { Code, LOGIN_MIN_LENGTH } from '@reel/protocol/client';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button, IconButton } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api-client';
import { messageForError, signInWithPassword } from '@/lib/auth';
import { local, StorageKey } from '@/lib/storage';
import { FormAlert } from '@/components/ui/form-alert';

interface LoginValues {
  username: string;
  password: string;
  remember: boolean;
}

/** Codes that belong to one input; everything else is a form-level message. */
const FIELD_OF_CODE: Partial<Record<number, keyof LoginValues>> = {
  [Code.LoginUnknownUser]: 'username',
  [Code.LoginIncorrect]: 'password',
};

interface LoginFormProps {
  /** Injected in tests; the real call otherwise. */
  submit?: typeof signInWithPassword;
}

export function LoginForm({ submit = signInWithPassword }: LoginFormProps) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  const remembered = local.get(StorageKey.rememberMe) !== 'false';
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isValid, isSubmitting },
  } = useForm<LoginValues>({
    mode: 'onChange',
    defaultValues: {
      username: remembered ? (local.get(StorageKey.rememberedUsername) ?? '') : '',
      password: '',
      remember: remembered,
    },
  });

  const minLength = { value: LOGIN_MIN_LENGTH, message: t('auth.minLength') };

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await submit({ username: values.username.trim(), password: values.password, remember: values.remember });
    } catch (error) {
      const message = messageForError(error);
      const field = error instanceof ApiError ? FIELD_OF_CODE[error.code] : undefined;
      if (field) setError(field, { type: 'server', message }, { shouldFocus: true });
      else setFormError(message);
    }
  });

  return (
    <form className="form" noValidate onSubmit={onSubmit} aria-label={t('auth.title')}>
      <FormAlert>{formError}</FormAlert>
      <TextField
        label={t('auth.username')}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username?.message}
        {...register('username', { required: t('auth.usernameRequired'), minLength })}
      />
      <TextField
        label={t('auth.password')}
        type={showPassword ? 'text' : 'password'}
        autoComplete="current-password"
        error={errors.password?.message}
        adornment={
          <IconButton
            icon={showPassword ? 'visibilityOff' : 'visibility'}
            label={showPassword ? t('auth.hidePassword') : t('auth.showPassword')}
            onClick={() => setShowPassword((value) => !value)}
            size={20}
          />
        }
        {...register('password', { required: t('auth.passwordRequired'), minLength })}
      />
      <label className="checkbox">
        <input type="checkbox" {...register('remember')} />
        <span>{t('auth.rememberMe')}</span>
      </label>
      <Button type="submit" fullWidth disabled={!isValid} busy={isSubmitting}>
        {isSubmitting ? t('auth.signingIn') : t('auth.submit')}
      </Button>
    </form>
  );
}
