import { passwordSchema } from '@dossierbase/core';
import { PasswordInput, Stack } from '@mantine/core';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { translateMessage } from '../../i18n/messages';

export const newPasswordSchema = z
  .object({ password: passwordSchema, repeat: z.string() })
  .refine((values) => values.password === values.repeat, {
    message: 'Passwords do not match',
    path: ['repeat'],
  });

export type NewPasswordValues = z.infer<typeof newPasswordSchema>;

export function NewPasswordFields({
  register,
  errors,
  testIdPrefix,
}: {
  register: UseFormRegister<NewPasswordValues>;
  errors: FieldErrors<NewPasswordValues>;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack>
      <PasswordInput
        label={t('password.new')}
        withAsterisk
        autoComplete="new-password"
        {...register('password')}
        error={errors.password && translateMessage(t, errors.password.message)}
        visibilityToggleButtonProps={{ 'aria-label': t('password.toggle') }}
        data-testid={`${testIdPrefix}-password`}
      />
      <PasswordInput
        label={t('password.repeat')}
        withAsterisk
        autoComplete="new-password"
        {...register('repeat')}
        error={errors.repeat && translateMessage(t, errors.repeat.message)}
        visibilityToggleButtonProps={{ 'aria-label': t('password.toggle') }}
        data-testid={`${testIdPrefix}-repeat`}
      />
    </Stack>
  );
}
