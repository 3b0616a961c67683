import { DISPLAY_VIEWS } from '@dossierbase/core';
import type { TFunction } from 'i18next';
import { pickTranslation } from './admin-api';

// The words admins read for the identifiers the configuration stores: field types, views, settings
// and their values, dossier data, cascade rules, permission actions. The catalogues hold one entry
// per identifier (settings-labels.test.ts checks every one in the six languages).

export const fieldTypeLabel = (t: TFunction, type: string) => t(`admin.field_types.${type}`);

/** A standard view by its label; a custom view is shown by the name the admin gave it. */
export function viewLabel(t: TFunction, view: string): string {
  return (DISPLAY_VIEWS as readonly string[]).includes(view) ? t(`admin.views.${view}`) : view;
}

export const settingLabel = (t: TFunction, key: string) => t(`admin.settings.labels.${key}`);

export const settingOptionLabel = (t: TFunction, group: string, value: string) =>
  t(`admin.settings.options.${group}.${value}`);

export const dossierDataLabel = (t: TFunction, key: string) => settingOptionLabel(t, 'dossier_data', key);

export const permissionActionLabel = (t: TFunction, action: string) =>
  t(`admin.permission_actions.${action}`);

/** A data field as pickers show it: its name and the label of its type. */
export const dataFieldLabel = (t: TFunction, field: { name: string; def_field?: { type: string } }) =>
  field.def_field ? `${field.name} (${fieldTypeLabel(t, field.def_field.type)})` : field.name;

/** A display position as pickers show it: its name and the label of its type. */
export function positionLabel(
  t: TFunction,
  position: { type: string; translations: { culture: string; name: string }[] },
  locale: string | null,
): string {
  const type = t(`admin.position.types.${position.type}`);
  const name = pickTranslation(position.translations, locale)?.name;
  return name ? `${name} (${type})` : type;
}
