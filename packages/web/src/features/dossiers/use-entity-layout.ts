import {
  type DefDossier,
  type DisplayItem,
  type DisplayPosition,
  type ListOption,
  valueRefsOf,
} from '@dossierbase/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { pickCulture, toIntlLocale } from '../../fields/helpers';
import { useEnvironment } from '../environments/environment-store';
import { dossierKeys } from './dossier-api';
import { type EntitySettings, NO_SETTINGS, readSettings } from './form-logic';

// What the dossier screens know about an entity. Names come from the environment every member
// has; settings, positions, the create form's items and list options come from the configuration
// calls, which the server answers in full for environment admins and, reduced to what the user may
// see, for members who may show the entity.

export interface EntityLayout {
  /** Configuration read (admins, and members with show on the entity). */
  configured: boolean;
  settings: EntitySettings;
  positions: DisplayPosition[] | null;
  /** the display items of the entity the user may see, for the create form */
  items: DisplayItem[] | null;
  /** list and tree options per base field id */
  options: Map<number, ListOption[]>;
}

interface Results<T> {
  results: T[];
}

async function loadLayout(
  defDossier: number,
  signal: AbortSignal,
): Promise<Omit<EntityLayout, 'configured'>> {
  const [entity, positions, items] = await Promise.all([
    api.get<DefDossier>(`/defdossier/${defDossier}`, undefined, signal),
    api.get<Results<DisplayPosition>>('/displayposition', { defDossier, limit: 500 }, signal),
    api.get<Results<DisplayItem>>('/displayitem', { defDossier, limit: 500 }, signal),
  ]);
  // Members get the options they may see on the items; admins read the option lists.
  const carried = new Map<number, ListOption[]>();
  for (const item of items.results) {
    const field = item.def_dossier_def_field?.def_field;
    if (field?.def_field_lists) carried.set(field.id, field.def_field_lists);
  }
  const listFields = [
    ...new Set(
      items.results.flatMap((item) => {
        const field = item.def_dossier_def_field?.def_field;
        return field && valueRefsOf(field.type) === 'options' && !carried.has(field.id) ? [field.id] : [];
      }),
    ),
  ];
  const options = new Map<number, ListOption[]>([
    ...carried,
    ...(await Promise.all(
      listFields.map(
        async (defField) =>
          [
            defField,
            (await api.get<Results<ListOption>>('/deffieldlist', { defField, limit: 500 }, signal)).results,
          ] as const,
      ),
    )),
  ]);
  return {
    settings: readSettings(entity.settings),
    positions: positions.results,
    items: items.results,
    options,
  };
}

export function useEntityLayout(defDossier: number) {
  const query = useQuery({
    queryKey: dossierKeys.layout(defDossier),
    queryFn: ({ signal }) => loadLayout(defDossier, signal),
    enabled: defDossier > 0,
    staleTime: 60_000,
  });
  const layout: EntityLayout = query.data
    ? { configured: true, ...query.data }
    : { configured: false, settings: NO_SETTINGS, positions: null, items: null, options: new Map() };
  return { layout, loading: query.isPending && defDossier > 0, error: query.error };
}

/** The entity's names in the UI language, from the environment's entity list. */
export function useEntityNames(defDossier: number) {
  const { i18n } = useTranslation();
  const environment = useEnvironment();
  const entity = environment?.defdossiers.find((dd) => dd.id === defDossier);
  const tr = entity
    ? pickCulture(entity.translations, toIntlLocale(i18n.language).replace('-', '_'))
    : undefined;
  return {
    known: Boolean(entity),
    name: tr?.name || tr?.name_plural || (defDossier ? `#${defDossier}` : ''),
    singular: tr?.name_singular || tr?.name || '',
  };
}

/** Translated name of a position (tab title). */
export function positionName(position: DisplayPosition, locale: string): string {
  return pickCulture(position.translations, locale)?.name ?? '';
}
