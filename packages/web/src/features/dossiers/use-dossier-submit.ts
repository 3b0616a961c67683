import type { Condition, DisplayItem, DuplicateBody } from '@dossierbase/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client';
import { notifyFailure, notifySuccess } from '../../api/errors';
import type { DossierValues } from './dossier-api';
import { focusFirstError } from './dossier-form';
import { requiredErrors, toPayload } from './form-logic';

// Submitting a dossier form with the spec's error catalogue (doc 2 section 8): a client required
// check first, then 400 field errors, 409 existing matches, 403 and other failures as toasts.

export type SubmitKind = 'create' | 'edit';

interface Options {
  kind: SubmitKind;
  items: readonly DisplayItem[];
  conditions: readonly Condition[];
  /** Values of the other tabs for the conditions (edit of one tab). */
  contextValues?: DossierValues;
  send: (values: DossierValues, ignoreExisting: boolean) => Promise<{ id: number }>;
  onSaved: (id: number) => void;
}

export function useDossierSubmit(options: Options) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [duplicates, setDuplicates] = useState<DuplicateBody | null>(null);
  const [forbidden, setForbidden] = useState(false);
  const [saving, setSaving] = useState(false);

  const submit = async (values: DossierValues, ignoreExisting = false): Promise<boolean> => {
    const { kind, items, conditions } = options;
    const all = { ...options.contextValues, ...values };
    const missing = requiredErrors(items, conditions, all);
    if (Object.keys(missing).length > 0) {
      setErrors(missing);
      focusFirstError(items, missing);
      notifyFailure(t(`dossier_errors.error_${kind}`));
      return false;
    }
    setSaving(true);
    try {
      const payload = toPayload(items, conditions, all);
      const { id } = await options.send(payload, ignoreExisting);
      setErrors({});
      setDuplicates(null);
      setForbidden(false);
      notifySuccess(t(`dossier_errors.success_${kind}`));
      options.onSaved(id);
      return true;
    } catch (error) {
      if (isApiError(error, 409)) {
        const body = error.body as DuplicateBody;
        setErrors(body.errors ?? {});
        setDuplicates({
          errors: body.errors ?? {},
          existing: body.existing ?? [],
          constraint_type: body.constraint_type,
        });
      } else if (isApiError(error, 403)) {
        setForbidden(true);
        notifyFailure(t(`dossier_errors.permission_${kind}`));
        window.scrollTo(0, 0);
      } else {
        const fieldErrors = isApiError(error) ? (error.fieldErrors ?? {}) : {};
        setErrors(fieldErrors);
        focusFirstError(items, fieldErrors);
        notifyFailure(t(`dossier_errors.error_${kind}`));
      }
      return false;
    } finally {
      setSaving(false);
    }
  };

  /** A changed field loses its error. */
  const clearError = (key: string) =>
    setErrors((current) => {
      if (!(key in current)) return current;
      const { [key]: _, ...rest } = current;
      return rest;
    });

  const reset = () => {
    setErrors({});
    setDuplicates(null);
    setForbidden(false);
  };

  return {
    submit,
    saving,
    errors,
    clearError,
    duplicates,
    closeDuplicates: () => setDuplicates(null),
    forbidden,
    reset,
  };
}
