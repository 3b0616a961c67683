import { type DisplayItem, type Dossier, type DossierDetail, valueRefsOf } from '@dossierbase/core';
import type { Db } from '../../db/database';
import { configCached } from '../../policy/config-cache';
import { type VisibleItem, visibleListOptions } from '../../policy/display-item';
import type { EnvironmentAccess } from '../../policy/environment';
import { readerSummaryKeys } from '../../policy/summary';
import { presentDossiers } from '../content-dossier-list/present';
import { presentListOption } from '../def-field/present';
import { presentDisplayItems, withChildAbilities } from '../display-item/present';
import type { DossierRow } from './read-model';

/** One dossier in the wire shape, with the summary the reader may see; the same presenter as the list's. */
export async function presentDossier(db: Db, access: EnvironmentAccess, row: DossierRow): Promise<Dossier> {
  const [dossier] = await presentDossiers(db, [row], await readerSummaryKeys(db, access));
  return dossier;
}

/**
 * Display items as a dossier page needs them: with the list and tree options the user may see
 * (spec 2 section 5, list option roles), cached with the configuration.
 */
export function presentItems(
  db: Db,
  access: EnvironmentAccess,
  items: VisibleItem[],
): Promise<DisplayItem[]> {
  const key = `presented-items:${items.map((v) => v.item.id).join(',')}`;
  return configCached(access, key, async () => {
    const optionFieldIds = items.flatMap((v) =>
      v.field && valueRefsOf(v.field.type) === 'options' ? [v.field.id] : [],
    );
    const [presented, options] = await Promise.all([
      presentDisplayItems(
        db,
        items.map((v) => v.item),
      ),
      visibleListOptions(db, access, optionFieldIds),
    ]);
    const visible = options.map(presentListOption);
    return (await withChildAbilities(db, access, presented)).map((item) => {
      const dataField = item.def_dossier_def_field;
      if (!dataField || valueRefsOf(dataField.def_field.type) !== 'options') return item;
      const def_field_lists = visible.filter((option) => option.def_field_id === dataField.def_field.id);
      return {
        ...item,
        def_dossier_def_field: { ...dataField, def_field: { ...dataField.def_field, def_field_lists } },
      };
    });
  });
}

export async function presentDetail(
  db: Db,
  access: EnvironmentAccess,
  row: DossierRow,
  items: VisibleItem[],
  content: Record<string, unknown>,
  marks: { favorite: boolean; subscribed: boolean },
): Promise<DossierDetail> {
  return {
    dossier: await presentDossier(db, access, row),
    content,
    items: await presentItems(db, access, items),
    subscribed: marks.subscribed,
    favorite: marks.favorite,
  };
}
