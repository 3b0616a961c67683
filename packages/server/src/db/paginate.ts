import { makePager, type Pager } from '@dossierbase/core';
import { type SelectQueryBuilder, sql } from 'kysely';

/**
 * One page of a filtered query plus the pager: `select` adds the columns and order to the filtered
 * query; the count runs over the same filters.
 */
export async function paginate<DB, TB extends keyof DB, O>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  select: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  { page, limit }: { page: number; limit: number },
): Promise<{ rows: O[]; pager: Pager }> {
  const [rows, count] = await Promise.all([
    select(filtered)
      .limit(limit)
      .offset(page * limit)
      .execute(),
    filtered.select(sql<number>`count(*)`.as('items')).executeTakeFirstOrThrow() as Promise<{
      items: number;
    }>,
  ]);
  return { rows: rows as O[], pager: makePager(page, limit, Number(count.items)) };
}
