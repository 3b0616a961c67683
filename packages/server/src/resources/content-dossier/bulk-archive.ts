import { FORBIDDEN_MESSAGE } from '@dossierbase/core';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { HttpError } from '../../http-errors';
import { canArchiveDossier, canShowDossiers } from '../../policy/dossier';
import { type EntityScope, openEntityScope } from '../../policy/entity';
import { announceDossiers } from '../../realtime/dossier-events';
import { isBacklink } from './links';
import { noticeSubscribers, pushNotices } from './subscription-notices';

// POST /api/contentdossier/archive and /dearchive with the ids of a selection: the bulk bar's archive
// of many dossiers in one transaction and a few statements (a set-based form of setArchived in
// service.ts, with its cascade), so that a thousand take well under the two seconds one call per
// dossier could not. A dossier that cannot be archived (unknown, or without the permission on its
// entity) is reported and the others are archived, as the bar's one-by-one calls would.

const NOT_FOUND = 'Not found';
const CHUNK = 1000;

interface Row {
  id: number;
  entityId: number;
  archived: boolean;
}

export async function archiveMany(
  db: Db,
  user: UserRow,
  environmentId: number,
  ids: number[],
  archived: boolean,
): Promise<{ done: number[]; failed: { id: number; message: string }[] }> {
  const wanted = [...new Set(ids)];
  const rows: Row[] = (
    await db
      .selectFrom('content_dossier')
      .select(['id', 'def_dossier_id', 'archived'])
      .where('environment_id', '=', environmentId)
      .where('id', 'in', wanted)
      .execute()
  ).map((r) => ({ id: Number(r.id), entityId: r.def_dossier_id, archived: r.archived }));
  // none of them known: as unknown as a single dossier's call would be
  if (rows.length === 0) throw new HttpError(404, { message: NOT_FOUND });
  const found = new Map(rows.map((r) => [r.id, r]));
  const failed = wanted.filter((id) => !found.has(id)).map((id) => ({ id, message: NOT_FOUND }));
  const scopes = new Map<number, EntityScope>();
  for (const entityId of new Set(rows.map((r) => r.entityId)))
    scopes.set(entityId, await openEntityScope(db, user, entityId, environmentId));
  const allowed: Row[] = [];
  for (const row of rows) {
    const scope = scopes.get(row.entityId) as EntityScope;
    if (!canShowDossiers(scope)) failed.push({ id: row.id, message: NOT_FOUND });
    else if (!canArchiveDossier(scope)) failed.push({ id: row.id, message: FORBIDDEN_MESSAGE });
    else allowed.push(row);
  }
  if (allowed.length === 0) return { done: [], failed };
  const access = (scopes.get(allowed[0].entityId) as EntityScope).access;

  const written: Row[] = [];
  const notified = await db.transaction().execute(async (trx) => {
    const noticed: number[] = [];
    const write = async (batch: Row[]) => {
      written.push(...batch);
      // each written dossier's subscribers hear of it, as setArchived tells them
      for (const r of batch)
        noticed.push(...(await noticeSubscribers(trx, access, r.id, archived ? 'archive' : 'change')));
      for (let i = 0; i < batch.length; i += CHUNK) {
        const chunk = batch.slice(i, i + CHUNK);
        await trx
          .updateTable('content_dossier')
          .set({ archived, modified_by: user.id, modified_at: new Date() })
          .where('environment_id', '=', environmentId)
          .where(
            'id',
            'in',
            chunk.map((r) => r.id),
          )
          .execute();
        await trx
          .insertInto('dossier_log')
          .values(
            chunk.map((r) => ({
              environment_id: environmentId,
              content_dossier_id: r.id,
              def_dossier_id: r.entityId,
              type: 'archive' as const,
              user_id: user.id,
              username: user.username,
              changes: [{ defDisplayItemName: 'archived', oldValue: r.archived, newValue: archived }],
            })),
          )
          .execute();
      }
    };
    // as one call per dossier would: each selected one is written and logged
    await write(allowed);
    if (!archived) return noticed;
    // the cascade, level by level: children through links whose rule is 'archive', when archivable
    const seen = new Set(allowed.map((r) => r.id));
    const archivable = new Map<number, boolean>();
    let frontier = allowed;
    while (frontier.length) {
      const next: Row[] = [];
      for (const entityId of new Set(frontier.map((r) => r.entityId))) {
        const parents = frontier.filter((r) => r.entityId === entityId).map((r) => r.id);
        const links = (
          await trx
            .selectFrom('def_dossier_link')
            .selectAll()
            .where('environment_id', '=', environmentId)
            .where('def_dossier_id', '=', entityId)
            .where('archive_cascade_rule', '=', 'archive')
            .execute()
        ).filter((l) => !isBacklink(l));
        for (const link of links) {
          for (let i = 0; i < parents.length; i += CHUNK) {
            const children = await trx
              .selectFrom('content_link as l')
              .innerJoin('content_dossier as c', (join) =>
                join.onRef('c.id', '=', 'l.child_id').onRef('c.environment_id', '=', 'l.environment_id'),
              )
              .select(['c.id', 'c.def_dossier_id', 'c.archived'])
              .where('l.environment_id', '=', environmentId)
              .where('l.link_id', '=', link.id)
              .where('l.parent_id', 'in', parents.slice(i, i + CHUNK))
              .execute();
            for (const c of children) {
              const id = Number(c.id);
              if (seen.has(id)) continue;
              seen.add(id);
              if (!archivable.has(c.def_dossier_id)) {
                const entity = await trx
                  .selectFrom('def_dossier')
                  .select('archivable')
                  .where('id', '=', c.def_dossier_id)
                  .where('environment_id', '=', environmentId)
                  .executeTakeFirst();
                archivable.set(c.def_dossier_id, entity?.archivable === true);
              }
              if (archivable.get(c.def_dossier_id))
                next.push({ id, entityId: c.def_dossier_id, archived: c.archived });
            }
          }
        }
      }
      await write(next.filter((r) => !r.archived));
      frontier = next;
    }
    return noticed;
  });
  await pushNotices(db, environmentId, [...new Set(notified)]);
  announceDossiers(db, environmentId, 'archived', written, user.id, { archived });
  return { done: allowed.map((r) => r.id), failed };
}
