import { INFORMATION_TEXT_ATTRIBUTES, INFORMATION_TEXT_TAGS } from '@dossierbase/core';
import { Alert } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { isApiError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { sanitiseHtml } from '../../fields/safe-html';
import { translateMessage } from '../../i18n/messages';

export type Errors = Record<string, string>;

/** Client-side check with a contract schema: messages by top-level field, or null when valid. */
export function validate(schema: z.ZodType, body: unknown, t: TFunction): Errors | null {
  const result = schema.safeParse(body);
  if (result.success) return null;
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    errors[key] ??= translateMessage(t, issue.message);
    const top = String(issue.path[0] ?? '_');
    errors[top] ??= translateMessage(t, issue.message);
  }
  return errors;
}

/** The server's per-field errors (400), or a general message under `_`. */
export function serverErrors(error: unknown, t: TFunction): Errors {
  if (isApiError(error) && error.fieldErrors) {
    return Object.fromEntries(
      Object.entries(error.fieldErrors).map(([key, message]) => [key, translateMessage(t, String(message))]),
    );
  }
  return { _: errorMessage(error, t) };
}

export function GeneralError({ errors }: { errors: Errors }) {
  if (!errors._) return null;
  return (
    <Alert color="red" data-testid="form-error">
      {errors._}
    </Alert>
  );
}

/** Information text and pre-text may hold only the contract's tags and attributes. */
export function sanitiseInformation(html: string): string {
  return sanitiseHtml(html, INFORMATION_TEXT_TAGS, INFORMATION_TEXT_ATTRIBUTES);
}
