import type { DisplayItem, Dossier, DossierDetail } from '@dossierbase/core';
import type { Db } from '../../db/database';
import type { VisibleItem } from '../../policy/display-item';
import { presentDossiers } from '../content-dossier-list/present';
import { presentDisplayItems } from '../display-item/present';
import type { DossierRow } from './service';

/** One dossier in the wire shape; the same presenter as the list's. */
export async function presentDossier(db: Db, row: DossierRow): Promise<Dossier> {
  const [dossier] = await presentDossiers(db, [row]);
  return dossier;
}

export const presentItems = (db: Db, items: VisibleItem[]): Promise<DisplayItem[]> =>
  presentDisplayItems(
    db,
    items.map((v) => v.item),
  );

export async function presentDetail(
  db: Db,
  row: DossierRow,
  items: VisibleItem[],
  content: Record<string, unknown>,
  marks: { favorite: boolean; subscribed: boolean },
): Promise<DossierDetail> {
  return {
    dossier: await presentDossier(db, row),
    content,
    items: await presentItems(db, items),
    subscribed: marks.subscribed,
    favorite: marks.favorite,
  };
}
