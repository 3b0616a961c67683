import type { Dossier, DossierListBody } from '@dossierbase/core';
import { dateOf, valueOfField } from './view-data';

export interface TimelineEntry {
  dossier: Dossier;
  date: Date | null;
}

/** The page's dossiers by their timeline date, oldest first; those without a date after them. */
export function timelineEntries(
  body: DossierListBody | undefined,
  dateField: number | null,
): TimelineEntry[] {
  if (!body) return [];
  return body.results.dossiers
    .map((dossier) => ({ dossier, date: dateOf(valueOfField(body, dossier.id, dateField)) }))
    .sort((a, b) => {
      if (a.date && b.date) return a.date.getTime() - b.date.getTime() || a.dossier.id - b.dossier.id;
      if (a.date) return -1;
      if (b.date) return 1;
      return a.dossier.id - b.dossier.id;
    });
}
