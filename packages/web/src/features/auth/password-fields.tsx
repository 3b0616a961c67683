import { PASSWORD_MESSAGES, passwordSchema } from '@dossierbase/core';
import { PasswordInput, Stack } from '@mantine/core';
import type { FieldErrors, Path, UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { translateMessage } from '../../i18n/messages';

export const newPasswordSchema = z
  .object({ password: passwordSchema, repeat: z.string() })
  .refine((values) => values.password === values.repeat, {
    message: PASSWORD_MESSAGES.mismatch,
    path: ['repeat'],
  });

export type NewPasswordValues = z.infer<typeof newPasswordSchema>;

/** The new password and its repeat, in a form of these values and maybe more (the old password). */
export function NewPasswordFields<T extends NewPasswordValues>({
  register,
  errors: formErrors,
  testIdPrefix,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const errors = formErrors as FieldErrors<NewPasswordValues>;
  return (
    <Stack>
      <PasswordInput
        label={t('password.new')}
        withAsterisk
        autoComplete="new-password"
        {...register('password' as Path<T>)}
        error={errors.password && translateMessage(t, errors.password.message)}
        visibilityToggleButtonProps={{ 'aria-label': t('password.toggle') }}
        data-testid={`${testIdPrefix}-password`}
      />
      <PasswordInput
        label={t('password.repeat')}
        withAsterisk
        autoComplete="new-password"
        {...register('repeat' as Path<T>)}
        error={errors.repeat && translateMessage(t, errors.repeat.message)}
        visibilityToggleButtonProps={{ 'aria-label': t('password.toggle') }}
        data-testid={`${testIdPrefix}-repeat`}
      />
    </Stack>
  );
}
