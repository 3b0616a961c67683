import { DOSSIER_DATA_KEYS, type Dossier, type DossierDetail, dossierColumnValue } from '@dossierbase/core';
import type { DossierValues } from '../dossier-api';

// Display items of dossier data (settings.dossier_data) show the dossier's own summary, id, creator,
// modifier and dates. The detail answer carries them on `dossier` (the summary the reader may see),
// so the page fills them in the shape the list receives (core dossierColumnValue: ISO dates, user ids).

type DossierDataKey = (typeof DOSSIER_DATA_KEYS)[number];

const isDossierDataKey = (key: unknown): key is DossierDataKey =>
  typeof key === 'string' && (DOSSIER_DATA_KEYS as readonly string[]).includes(key);

function dossierDataValue(dossier: Dossier, key: DossierDataKey): unknown {
  if (key === 'summary') return dossier.summary;
  if (key === 'dossier_id') return dossier.id;
  const users = { created_by: dossier.created_by?.id ?? null, modified_by: dossier.modified_by?.id ?? null };
  return dossierColumnValue({ ...dossier, ...users }, key);
}

/** The values a dossier page shows: the content, with the dossier-data items filled from the dossier. */
export function detailValues(detail: Pick<DossierDetail, 'content' | 'items' | 'dossier'>): DossierValues {
  const values: DossierValues = { ...detail.content };
  for (const item of detail.items) {
    const key = item.settings?.dossier_data;
    if (!item.def_dossier_def_field && !item.def_dossier_link && isDossierDataKey(key))
      values[String(item.id)] = dossierDataValue(detail.dossier, key);
  }
  return values;
}
