import { computeCalc, type FormulaValue, parseFieldSettings } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { configCached } from '../../policy/config-cache';
import type { EntityScope } from '../../policy/entity';
import type { EnvironmentAccess } from '../../policy/environment';

// Values the server writes itself: auto-increment numbers on create, calc fields on every write.

/** All data fields of the entity with their base field (for server-computed fields); configuration, cached. */
function entityDataFields(db: Db, access: EnvironmentAccess, entityId: number) {
  return configCached(access, `data-fields:${entityId}`, () =>
    db
      .selectFrom('def_dossier_def_field as d')
      .innerJoin('def_field as f', 'f.id', 'd.def_field_id')
      .select(['d.id', 'd.name', 'd.settings as data_settings', 'f.type', 'f.settings', 'f.id as field_id'])
      .where('d.environment_id', '=', access.environment.id)
      .where('d.def_dossier_id', '=', entityId)
      .orderBy('d.id')
      .execute(),
  );
}

/** Writes the server-computed values into `values` (keyed by data-field id); counters count in `trx`. */
export async function computeServerValues(
  db: Db,
  trx: Db,
  scope: EntityScope,
  values: Record<string, unknown>,
  creating: boolean,
) {
  const fields = await entityDataFields(db, scope.access, scope.entity.id);
  if (creating) {
    for (const f of fields.filter((f) => f.type === 'autoIncrement')) {
      const row = await trx
        .insertInto('auto_increment_counter')
        .values({ def_dossier_def_field_id: f.id, value: 1 })
        .onConflict((oc) =>
          oc.column('def_dossier_def_field_id').doUpdateSet({ value: sql`auto_increment_counter.value + 1` }),
        )
        .returning('value')
        .executeTakeFirstOrThrow();
      values[String(f.id)] = Number(row.value);
    }
  }
  const calcs = fields.filter((f) => f.type === 'calc');
  if (calcs.length === 0) return;
  const byName = new Map(fields.map((f) => [f.name, f]));
  const lookup = (name: string): FormulaValue | undefined => {
    const f = byName.get(name);
    if (!f) return undefined;
    const value = values[String(f.id)];
    if (value === undefined) return null;
    return value as FormulaValue;
  };
  // Calc fields may refer to each other: two passes settle one level of nesting.
  for (let pass = 0; pass < 2; pass++) {
    for (const f of calcs) {
      const settings = parseFieldSettings('calc', f.settings, f.data_settings);
      const result = computeCalc(settings, lookup);
      values[String(f.id)] = result.ok ? result.value : null;
    }
  }
}
