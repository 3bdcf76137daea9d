import { Code, NEW_PASSWORD_MIN_LENGTH } from '@reel/protocol/client';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api-client';
import { messageForError } from '@/lib/auth';
import { toast } from '@/lib/toast-store';
import { changePassword } from '../api/change-password';
import { FormAlert } from '@/components/ui/form-alert';

interface PasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export function ChangePasswordForm({
  onChanged,
  submit = changePassword,
}: {
  onChanged?: () => void;
  submit?: typeof changePassword;
}) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    getValues,
    formState: { errors, isValid, isSubmitting },
  } = useForm<PasswordValues>({
    mode: 'onChange',
    defaultValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await submit(values.oldPassword, values.newPassword);
      reset();
      toast.success(t('profile.passwordChanged'));
      onChanged?.();
    } catch (error) {
      const message = messageForError(error);
      if (error instanceof ApiError && error.code === Code.OldPasswordWrong)
        setError('oldPassword', { type: 'server', message }, { shouldFocus: true });
      else if (error instanceof ApiError && error.code === Code.PasswordTooShort)
        setError('newPassword', { type: 'server', message }, { shouldFocus: true });
      else setFormError(message);
    }
  });

  // The server's change-password rule (40101), from the one constant both use.
  const minLength = {
    value: NEW_PASSWORD_MIN_LENGTH,
    message: t('profile.newPasswordMinLength', { count: NEW_PASSWORD_MIN_LENGTH }),
  };
  return (
    <form className="form" noValidate onSubmit={onSubmit} aria-labelledby="change-password-title">
      <FormAlert>{formError}</FormAlert>
      <TextField
        label={t('profile.oldPassword')}
        type="password"
        autoComplete="current-password"
        error={errors.oldPassword?.message}
        {...register('oldPassword', { required: t('auth.passwordRequired') })}
      />
      <TextField
        label={t('profile.newPassword')}
        type="password"
        autoComplete="new-password"
        error={errors.newPassword?.message}
        {...register('newPassword', {
          required: t('auth.passwordRequired'),
          minLength,
          deps: ['confirmPassword'],
        })}
      />
      <TextField
        label={t('profile.confirmPassword')}
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword', {
          required: t('auth.passwordRequired'),
          validate: (value) => value === getValues('newPassword') || t('profile.passwordsMismatch'),
        })}
      />
      <Button type="submit" disabled={!isValid} busy={isSubmitting}>
        {t('profile.submitPassword')}
      </Button>
    </form>
  );
}
