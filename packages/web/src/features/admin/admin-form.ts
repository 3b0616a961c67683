import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client';
import { errorMessage, notifyError } from '../../api/errors';
import { translateMessage } from '../../i18n/messages';
import { useRefreshAdmin } from './admin-api';

/** The form-wide error every admin modal shows above its fields (the shell reads it). */
const ROOT = 'root.server' as const;

/**
 * A failed save on the form: the server's 400 messages on the fields they name (through `fieldMap`
 * when the server's name differs), a message for a field the form does not have, or any other
 * failure, as the form's own error.
 */
export function showServerError<T extends FieldValues, O extends FieldValues>(
  form: UseFormReturn<T, unknown, O>,
  error: unknown,
  t: TFunction,
  fieldMap: Partial<Record<string, Path<T>>> = {},
): void {
  const fieldErrors = isApiError(error) ? error.fieldErrors : null;
  if (!fieldErrors) {
    form.setError(ROOT, { type: 'server', message: errorMessage(error, t) });
    return;
  }
  const known = new Set(Object.keys(form.getValues()));
  const general: string[] = [];
  for (const [field, message] of Object.entries(fieldErrors)) {
    const path = fieldMap[field] ?? field;
    const text = translateMessage(t, String(message));
    if (known.has(path.split('.')[0])) form.setError(path as Path<T>, { type: 'server', message: text });
    else general.push(text);
  }
  if (general.length) form.setError(ROOT, { type: 'server', message: general.join(' ') });
}

/** The form-wide message, if any. */
export function formError<T extends FieldValues, O extends FieldValues>(form: UseFormReturn<T, unknown, O>) {
  return form.formState.errors.root?.server?.message;
}

interface AdminMutationOptions<T extends FieldValues, R> {
  /** After the admin queries are refetched. */
  onSuccess?: (result: R) => void;
  /** Server field names that differ from the form's. */
  fieldMap?: Partial<Record<string, Path<T>>>;
  /** Also refresh the stored environment (the shell menu shows entities). */
  environmentToo?: boolean;
}

/**
 * A save or delete of an admin form as a TanStack mutation: on success the admin queries are
 * refetched, on failure the server's messages land on the form (see showServerError).
 */
export function useAdminMutation<T extends FieldValues, O extends FieldValues, V, R>(
  form: UseFormReturn<T, unknown, O>,
  mutationFn: (variables: V) => Promise<R>,
  options: AdminMutationOptions<T, R> = {},
) {
  const { t } = useTranslation();
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn,
    onMutate: () => form.clearErrors(ROOT),
    onSuccess: async (result) => {
      await refresh(options.environmentToo);
      options.onSuccess?.(result);
    },
    onError: (error) => showServerError(form, error, t, options.fieldMap),
  });
}

/** The messages of a nested form value (settings) by key, translated: what SettingsFields shows. */
export function nestedMessages(node: unknown, t: TFunction): Record<string, string> {
  if (!node || typeof node !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(node)) {
    const message = (entry as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string') out[key] = translateMessage(t, message);
  }
  return out;
}

/**
 * A change made outside a form (moving options, items, positions or entities): a TanStack mutation
 * that shows a failure as a notification and refetches the admin queries either way.
 */
export function useAdminAction<V>(mutationFn: (variables: V) => Promise<unknown>, environmentToo = false) {
  const { t } = useTranslation();
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn,
    onError: (error) => notifyError(error, t),
    onSettled: () => refresh(environmentToo),
  });
}
