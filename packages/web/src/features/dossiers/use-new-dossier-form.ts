import type { DisplayItem } from '@dossierbase/core';
import { useMemo } from 'react';
import { useFieldLocale } from '../../fields/shared';
import { useTokenData } from '../auth/session';
import { type CreateContext, createDossier } from './dossier-api';
import type { DossierFormProps } from './dossier-form';
import { detailTabs, initialValues, isEditable } from './form-logic';
import { useDossierSubmit } from './use-dossier-submit';
import { positionName, useEntityLayout } from './use-entity-layout';
import { useFormDefaults } from './use-form-defaults';
import { type LimitLinkPrefill, limitLinkValues } from './views/view-logic';

// The form of a new dossier of one entity, shared by the create page and the link picker's New modal:
// its sections (one per tab with editable items), their default values and the create call.

export function useNewDossierForm(
  defDossier: number,
  onSaved: (id: number) => void,
  options: {
    firstSectionOnly?: boolean;
    context?: CreateContext;
    /** inside an embedded list with limit_embedded_link: that link starts holding the parent */
    prefill?: LimitLinkPrefill | null;
  } = {},
) {
  const locale = useFieldLocale();
  // the user, not the token: a renewed token is a new object for the same user
  const userId = useTokenData()?.user_id;
  const { layout, loading, error } = useEntityLayout(defDossier);
  const { firstSectionOnly = false } = options;
  const sections = useMemo(() => {
    const all = layout.items ?? [];
    const tabs = detailTabs(layout.positions, all, (p) => positionName(p, locale));
    const filled = tabs
      .map((tab) => ({
        tab,
        items: all.filter((item) => item.display_position_id === tab.id && isEditable(item)),
      }))
      .filter((section) => section.items.length > 0);
    return firstSectionOnly ? filled.slice(0, 1) : filled;
  }, [layout.items, layout.positions, locale, firstSectionOnly]);
  const items = useMemo<DisplayItem[]>(() => sections.flatMap((s) => s.items), [sections]);
  const { prefill } = options;
  const start = useMemo(
    () => ({ ...initialValues(items, layout.options, userId), ...limitLinkValues(items, prefill) }),
    [items, layout.options, userId, prefill],
  );
  const [values, setValues] = useFormDefaults(start);
  const submitter = useDossierSubmit({
    kind: 'create',
    items,
    conditions: layout.settings.conditions,
    send: (payload, ignore) =>
      createDossier({ defDossier, values: payload, ignore_existing: ignore }, options.context),
    onSaved,
  });
  const change = (key: string, value: unknown) => {
    submitter.clearError(key);
    setValues((current) => ({ ...current, [key]: value }));
  };
  /** What every DossierForm of this new dossier takes (the page adds items, sources and testId). */
  const formProps = {
    mode: 'edit',
    values,
    onChange: change,
    conditions: layout.settings.conditions,
    errors: submitter.errors,
    disabled: submitter.saving,
  } satisfies Partial<DossierFormProps>;
  return { layout, loading, error, sections, items, start, values, setValues, change, submitter, formProps };
}
