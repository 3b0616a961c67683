import { notifications } from '@mantine/notifications';
import type { TFunction } from 'i18next';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { translateMessage } from '../i18n/messages';
import { isApiError } from './client';

/** Puts 400 `{errors: {field: msg}}` messages on the form; returns true when it did. */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  t: TFunction,
  fieldMap: Record<string, Path<T>> = {},
): boolean {
  if (!isApiError(error)) return false;
  const errors = error.fieldErrors;
  if (!errors) return false;
  for (const [field, message] of Object.entries(errors)) {
    setError(fieldMap[field] ?? (field as Path<T>), {
      type: 'server',
      message: translateMessage(t, message),
    });
  }
  return true;
}

/** The message a failed call should show: the server's for 403 and 503, otherwise Something went wrong. */
export function errorMessage(error: unknown, t: TFunction): string {
  if (isApiError(error, 403) || isApiError(error, 503)) return translateMessage(t, error.serverMessage);
  return t('common.something_went_wrong');
}

/**
 * What a form that keeps its values in plain state shows of a failed call: each field's translated
 * 400 message (fieldError), and the message of any other failure (formError).
 */
export function callErrors(error: unknown, t: TFunction) {
  const fields = isApiError(error) ? (error.fieldErrors ?? {}) : {};
  return {
    fieldError: (name: string) => (fields[name] ? translateMessage(t, fields[name]) : undefined),
    formError: error && !isApiError(error, 400) ? errorMessage(error, t) : undefined,
  };
}

/**
 * The message of a refused action that has no form to put field messages on (a switch, a button):
 * the server's 400 messages, otherwise as errorMessage.
 */
export function actionErrorMessage(error: unknown, t: TFunction): string {
  const fields = isApiError(error) ? error.fieldErrors : null;
  if (!fields) return errorMessage(error, t);
  return Object.values(fields)
    .map((message) => translateMessage(t, message))
    .join(' ');
}

// Toasts: their containers are polite live regions (app/providers.tsx), so a screen reader reads each
// one out; a failure is an alert, read out at once, the others status messages.

/** A failed call's toast: Error, and the message errorMessage gives. */
export function notifyError(error: unknown, t: TFunction): void {
  notifyFailure(errorMessage(error, t), t('common.error'));
}

/** A toast of a failure. */
export function notifyFailure(message: string, title?: string): void {
  notifications.show({ color: 'red', title, message, role: 'alert', 'data-testid': 'notification-error' });
}

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message, role: 'status', 'data-testid': 'notification-success' });
}

export function notifyWarning(message: string): void {
  notifications.show({ color: 'orange', message, role: 'status', 'data-testid': 'notification-warning' });
}
