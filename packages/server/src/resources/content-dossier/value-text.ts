import {
  type FieldContext,
  fieldSettingsOf,
  fieldTypeOf,
  getFieldType,
  isFieldTypeName,
  valueRefsOf,
} from '@dossierbase/core';
import type { Db } from '../../db/database';
import { type VisibleItem, visibleListOptions } from '../../policy/display-item';
import type { EnvironmentAccess } from '../../policy/environment';
import { readerSummaryKeys } from '../../policy/summary';
import { visibleSummary } from '../../query/visible-summary';

// Item values as text, as the field type displays them to one reader (the change log, exports): a
// list or tree option by its label (of the options the reader may see), a user by their name, a
// linked dossier by the summary the reader may see, rich text without its markup. The caller passes
// only items visible to the reader; prepare() loads the users and dossiers a batch of values names.

const idsIn = (value: unknown): number[] =>
  (Array.isArray(value) ? value : [value]).flatMap((id) =>
    typeof id === 'number' && Number.isSafeInteger(id) ? [id] : [],
  );

/** What the ids of an item's value stand for: its type's, or dossiers for a link item. */
const refsOf = (v: VisibleItem) => (v.link ? 'dossiers' : v.field ? valueRefsOf(v.field.type) : null);

/** Whether an item's values name users or dossiers, whose names prepare() must load first. */
export const namesOthers = (v: VisibleItem) => {
  const refs = refsOf(v);
  return refs === 'users' || refs === 'dossiers';
};

/** How many texts of distinct values each item keeps (a few hundred KB at most). */
const KNOWN_TEXTS = 5000;
/** After this many values not met before, an item met again less often than not keeps no texts. */
const KNOWN_TRIAL = 1000;

export async function valueFormatter(db: Db, access: EnvironmentAccess, items: readonly VisibleItem[]) {
  const environmentId = access.environment.id;
  const optionFieldIds = items.flatMap((v) => (v.field && refsOf(v) === 'options' ? [v.field.id] : []));
  const [options, summaryKeys] = await Promise.all([
    visibleListOptions(db, access, optionFieldIds),
    readerSummaryKeys(db, access),
  ]);
  const optionsOf = new Map<number, { id: number; label: string }[]>();
  for (const option of options) {
    const list = optionsOf.get(option.def_field_id) ?? [];
    list.push({ id: option.id, label: option.translations[0]?.text ?? `#${option.id}` });
    optionsOf.set(option.def_field_id, list);
  }
  const users = new Map<number, string>();
  const dossiers = new Map<number, string>();
  // what text() needs of an item, worked out once per item (an export formats every value of every row)
  const formatOf = (v: VisibleItem) => {
    const type = fieldTypeOf(v);
    const refs = refsOf(v);
    return {
      refs,
      type: type && isFieldTypeName(type) ? getFieldType(type) : null,
      settings: fieldSettingsOf(v),
      options: optionsOf.get(v.field?.id ?? 0) ?? [],
      // the texts of values met before: a value's text depends on nothing else here (a user's once
      // prepare() has their name); an export meets the same status, user, date or number often. An
      // item whose values are seldom met twice (titles, e-mail addresses) stops keeping them.
      known: new Map<string | number | boolean, string>() as Map<string | number | boolean, string> | null,
      hits: 0,
      misses: 0,
    };
  };
  const formats = new Map(items.map((v) => [v.item.id, formatOf(v)]));

  return {
    /** Loads the names of the users and the summaries of the dossiers these values refer to. */
    async prepare(values: Iterable<[VisibleItem, unknown]>) {
      const userIds = new Set<number>();
      const dossierIds = new Set<number>();
      for (const [v, value] of values) {
        const refs = formats.get(v.item.id)?.refs ?? refsOf(v);
        if (refs !== 'users' && refs !== 'dossiers') continue;
        for (const id of idsIn(value)) {
          if (refs === 'users' && !users.has(id)) userIds.add(id);
          if (refs === 'dossiers' && !dossiers.has(id)) dossierIds.add(id);
        }
      }
      if (userIds.size) {
        // members of this environment only: an id never names someone of another tenant
        const rows = await db
          .selectFrom('app_user as u')
          .innerJoin('environment_user as m', 'm.user_id', 'u.id')
          .select(['u.id', 'u.username', 'u.first_name', 'u.preposition', 'u.last_name'])
          .where('m.environment_id', '=', environmentId)
          .where('u.id', 'in', [...userIds])
          .execute();
        for (const row of rows) {
          const full = [row.first_name, row.preposition, row.last_name].filter(Boolean).join(' ');
          users.set(row.id, full || row.username);
        }
      }
      if (dossierIds.size) {
        const rows = await db
          .selectFrom('content_dossier')
          .select(['id', 'summary', 'summaries', 'def_dossier_id'])
          .where('environment_id', '=', environmentId)
          .where('id', 'in', [...dossierIds])
          .execute();
        for (const row of rows)
          dossiers.set(Number(row.id), visibleSummary(row, summaryKeys.get(row.def_dossier_id)));
      }
    },
    /** The value as text; '' when empty. */
    text(v: VisibleItem, value: unknown): string {
      if (value === null || value === undefined) return '';
      const format = formats.get(v.item.id) ?? formatOf(v);
      const { refs, type } = format;
      if (refs === 'dossiers')
        return idsIn(value)
          .map((id) => dossiers.get(id) ?? `#${id}`)
          .join(', ');
      if (!type) return typeof value === 'string' ? value : JSON.stringify(value);
      // short values only: a long text (rich text, say) is rarely met twice and would fill the memory
      const primitive =
        typeof value === 'object' || (typeof value === 'string' && value.length > 64)
          ? null
          : (value as string | number | boolean);
      if (primitive !== null && format.known) {
        const known = format.known.get(primitive);
        if (known !== undefined) {
          format.hits += 1;
          return known;
        }
        format.misses += 1;
        if (format.misses >= KNOWN_TRIAL && format.hits < format.misses) format.known = null;
      }
      const ctx: FieldContext = {};
      if (refs === 'options') ctx.options = format.options;
      if (refs === 'users')
        ctx.users = idsIn(value).flatMap((id) => (users.has(id) ? [{ id, name: users.get(id) }] : []));
      let text: string;
      try {
        text = type.format(value as never, format.settings as never, 'nl', ctx);
      } catch {
        text = typeof value === 'string' ? value : JSON.stringify(value);
      }
      const final = refs !== 'users' || users.has(primitive as number);
      if (primitive !== null && final && format.known && format.known.size < KNOWN_TEXTS)
        format.known.set(primitive, text);
      return text;
    },
  };
}

export type ValueFormatter = Awaited<ReturnType<typeof valueFormatter>>;
