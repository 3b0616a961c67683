import { type Dossier, isoTime } from '@dossierbase/core';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { ContentDossierTable } from '../../db/schema';
import type { SummaryKeys } from '../../policy/summary';
import { usernamesOf } from '../../policy/usernames';
import { visibleSummary } from '../../query/visible-summary';

type Row = Selectable<ContentDossierTable>;
type Name = string | null | undefined;
/** What the wire shape reads of a dossier row (a list page row has its dates as ISO text already). */
type WireColumns = Pick<
  Row,
  'id' | 'summary' | 'def_dossier_id' | 'environment_id' | 'archived' | 'created_by' | 'modified_by'
> & { summaries?: Row['summaries']; created_at: Date | string; modified_at: Date | string };

/**
 * One dossier row in the wire shape, with the usernames of its creator and last editor and the
 * summary the reader may see (`summaryKey`, see policy/summary.ts).
 */
export function dossierWire(
  row: WireColumns,
  names: { created_by: Name; modified_by: Name },
  summaryKey: string | undefined,
): Dossier {
  const ref = (id: number | null, name: Name) =>
    id === null || name == null ? null : { id, username: name };
  return {
    id: Number(row.id),
    summary: visibleSummary(row, summaryKey),
    def_dossier_id: row.def_dossier_id,
    environment_id: row.environment_id,
    archived: row.archived,
    created_at: isoTime(row.created_at),
    modified_at: isoTime(row.modified_at),
    created_by: ref(row.created_by, names.created_by),
    modified_by: ref(row.modified_by, names.modified_by),
  };
}

/** Dossier rows in the wire shape, with the usernames of creator and last editor. */
export async function presentDossiers(db: Db, rows: Row[], summaryKeys: SummaryKeys): Promise<Dossier[]> {
  const nameOf = await usernamesOf(
    db,
    rows.flatMap((r) => [r.created_by, r.modified_by]),
  );
  return rows.map((row) =>
    dossierWire(
      row,
      { created_by: nameOf(row.created_by), modified_by: nameOf(row.modified_by) },
      summaryKeys.get(row.def_dossier_id),
    ),
  );
}
