import type { DisplayItem, Dossier, DossierDetail } from '@dossierbase/core';
import type { Db } from '../../db/database';
import type { VisibleItem } from '../../policy/display-item';
import { presentDisplayItems } from '../display-item/present';
import type { DossierRow } from './service';

export async function presentDossier(db: Db, row: DossierRow): Promise<Dossier> {
  const userIds = [row.created_by, row.modified_by].filter((id): id is number => id !== null);
  const users = userIds.length
    ? await db.selectFrom('app_user').select(['id', 'username']).where('id', 'in', userIds).execute()
    : [];
  const ref = (id: number | null) => {
    const user = users.find((u) => u.id === id);
    return user ? { id: user.id, username: user.username } : null;
  };
  return {
    id: Number(row.id),
    summary: row.summary,
    def_dossier_id: row.def_dossier_id,
    environment_id: row.environment_id,
    archived: row.archived,
    created_at: new Date(row.created_at).toISOString(),
    modified_at: new Date(row.modified_at).toISOString(),
    created_by: ref(row.created_by),
    modified_by: ref(row.modified_by),
  };
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
