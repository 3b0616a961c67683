import type { Favourite, FavouritePage, FavouritesQuery } from '@dossierbase/core';
import { makePager } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { entitiesShownIn } from '../../policy/entity';
import { openEnvironment } from '../../policy/environment';
import { readerSummaryKeys } from '../../policy/summary';
import { likeContains } from '../../query/list-query';
import { summaryOfAnyEntitySql } from '../../query/visible-summary';

// The favourites side panel's list (GET /api/contentdossier/favorites): the user's favourites in one
// environment, of the dossiers they may still show, each with the summary they may see. A favourite of a
// dossier whose entity the user lost show on stays stored (it comes back with the permission) but is
// never listed; a deleted dossier takes its favourites with it (foreign key).

export async function listFavourites(db: Db, user: UserRow, query: FavouritesQuery): Promise<FavouritePage> {
  const access = await openEnvironment(db, user, query.environment);
  const shown = await entitiesShownIn(db, access);
  if (shown !== 'all' && shown.length === 0)
    return { results: [], pager: makePager(query.page, query.limit, 0) };
  const summaryKeys = await readerSummaryKeys(db, access);
  const summary = summaryOfAnyEntitySql('d', summaryKeys);
  let filtered = db
    .selectFrom('favourite as f')
    .innerJoin('content_dossier as d', (join) =>
      join.onRef('d.environment_id', '=', 'f.environment_id').onRef('d.id', '=', 'f.content_dossier_id'),
    )
    .where('f.environment_id', '=', access.environment.id)
    .where('d.environment_id', '=', access.environment.id)
    .where('f.user_id', '=', user.id);
  if (shown !== 'all') filtered = filtered.where('d.def_dossier_id', 'in', shown);
  const search = query.search?.trim();
  if (search) filtered = filtered.where(sql<boolean>`${summary} ilike ${likeContains(search)}`);
  const [{ total }, rows] = await Promise.all([
    filtered.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
    filtered
      .select(['f.id', 'f.content_dossier_id', 'd.def_dossier_id', 'f.created_at', summary.as('summary')])
      .orderBy('f.created_at', 'desc')
      .orderBy('f.id', 'desc')
      .limit(query.limit)
      .offset(query.page * query.limit)
      .execute(),
  ]);
  const results: Favourite[] = rows.map((row) => ({
    id: Number(row.id),
    content_dossier_id: Number(row.content_dossier_id),
    def_dossier_id: row.def_dossier_id,
    summary: String(row.summary ?? ''),
    created_at: new Date(row.created_at).toISOString(),
  }));
  return { results, pager: makePager(query.page, query.limit, Number(total)) };
}
