import type { DisplayItem } from '@dossierbase/core';
import { pickTranslation } from '../admin-api';

/** A display item's name for admin screens: its translation, else its field, link or dossier data, else its id. */
export function itemLabel(item: DisplayItem, locale: string | null): string {
  const name = pickTranslation(item.translations, locale)?.name;
  if (name) return name;
  if (item.def_dossier_def_field) return item.def_dossier_def_field.name;
  if (item.def_dossier_link) return item.def_dossier_link.name;
  if (item.settings?.dossier_data) return String(item.settings.dossier_data);
  return `#${item.id}`;
}
