import type { Db } from '../db/database';
import { configCached } from './config-cache';
import type { DisplayItemRow } from './display-item';
import { type EnvironmentAccess, isEnvironmentAdmin } from './environment';
import { allAdmitRoleIds, isRestricted, itemRules, type RoleRule } from './field-visibility';

// Which summary a reader gets. A dossier's summary joins the values of its entity's 'summary' view
// items; an item restricted to roles may only reach readers who may see it (spec 2 section 5,
// "Visibility by role"). content_dossier.summary joins every item; for entities with restricted
// summary items, content_dossier.summaries keeps one summary per visibility class, keyed by
// summaryVariantKey. Readers who see every summary item (and environment admins) read `summary`;
// every other reader reads the variant of their class. Every presenter and query asks here.

/** What decides who sees a summary item: its own roles and those of its data field (`field`). */
export type SummaryItemRule = Pick<DisplayItemRow, 'id' | 'roles' | 'permissions_type'> & {
  field?: RoleRule;
};

/** The item's rules: its field's, which hold in every view, and its own. */
const rulesOf = (item: RoleRule & { field?: RoleRule }) => itemRules(item, item.field ?? null);

/** Hidden from someone, by the item's own roles or its field's. */
export const isRoleRestricted = (item: RoleRule & { field?: RoleRule }) => rulesOf(item).some(isRestricted);

/** What a query of display_item `i` joined with its def_dossier_def_field `d` reads of who sees an item. */
export const SUMMARY_RULE_COLUMNS = [
  'i.id as item_id',
  'i.roles',
  'i.permissions_type',
  'd.roles as field_roles',
  'd.permissions_type as field_permissions_type',
] as const;

type RuleColumns = {
  item_id: number;
  field_roles: number[];
  field_permissions_type: RoleRule['permissions_type'];
} & Pick<DisplayItemRow, 'roles' | 'permissions_type'>;

/** A row read with SUMMARY_RULE_COLUMNS as the rule of its summary item. */
export const summaryItemRule = (row: RuleColumns): SummaryItemRule => ({
  id: row.item_id,
  roles: row.roles,
  permissions_type: row.permissions_type,
  field: { roles: row.field_roles, permissions_type: row.field_permissions_type },
});

const visibleToRoleIds = (roleIds: ReadonlySet<number>, item: SummaryItemRule) =>
  allAdmitRoleIds(roleIds, rulesOf(item));

/** Past this many roles or classes, a reader who sees part of the restricted items gets the public class. */
const MAX_ROLES = 8;
const MAX_VARIANTS = 16;

/**
 * The key of a variant: the restricted items of the configuration it was written under, then those
 * the class sees. A configuration that restricts other items changes every key, so a dossier not yet
 * rewritten under it has no variant for its readers and is shown by its id, never with a stale text.
 */
export const summaryVariantKey = (restricted: readonly number[], visible: readonly number[]) =>
  `${restricted.join(',')}|${visible.join(',')}`;

const restrictedIds = (items: readonly SummaryItemRule[]) =>
  items
    .filter(isRoleRestricted)
    .map((item) => item.id)
    .sort((a, b) => a - b);

const visibleFor = (roleIds: readonly number[], items: readonly SummaryItemRule[]) => {
  const roles = new Set(roleIds);
  return restrictedIds(items.filter((item) => visibleToRoleIds(roles, item)));
};

/**
 * The visibility classes of an entity's summary items that need a variant: for every combination of
 * the roles the restricted items name, the restricted items it sees, except all of them (those readers
 * read the full summary); always the class that sees none (the public summary, the fall-back).
 */
export function summaryVariants(items: readonly SummaryItemRule[]): { key: string; visible: Set<number> }[] {
  const restricted = restrictedIds(items);
  if (restricted.length === 0) return [];
  const restrictedItems = items.filter(isRoleRestricted);
  const classes = new Map<string, number[]>([['', []]]);
  const roles = [
    ...new Set(restrictedItems.flatMap((item) => rulesOf(item).flatMap((rule) => rule.roles))),
  ].sort((a, b) => a - b);
  if (roles.length <= MAX_ROLES) {
    for (let mask = 0; mask < 1 << roles.length; mask++) {
      const held = roles.filter((_, bit) => mask & (1 << bit));
      const visible = visibleFor(held, restrictedItems);
      if (visible.length < restricted.length) classes.set(visible.join(','), visible);
    }
  }
  const kept = classes.size <= MAX_VARIANTS ? [...classes.values()] : [[]];
  return kept.map((visible) => ({ key: summaryVariantKey(restricted, visible), visible: new Set(visible) }));
}

/** The variant key the reader gets for these summary items, or null for the full summary. */
export function readerSummaryKey(
  access: EnvironmentAccess,
  items: readonly SummaryItemRule[],
): string | null {
  if (isEnvironmentAdmin(access)) return null;
  const restricted = restrictedIds(items);
  const roleIds = new Set(access.membership?.role_ids ?? []);
  const visible = restrictedIds(items.filter((item) => visibleToRoleIds(roleIds, item)));
  if (visible.length === restricted.length) return null;
  const key = summaryVariantKey(restricted, visible);
  const stored = summaryVariants(items).some((variant) => variant.key === key);
  return stored ? key : summaryVariantKey(restricted, []);
}

/** Per entity of the environment: the variant key of the summaries the reader gets; absent: the full one. */
export type SummaryKeys = ReadonlyMap<number, string>;

const NO_KEYS: SummaryKeys = new Map();

/**
 * The reader's summary keys of every entity of the environment, cached with the configuration: no
 * statement once warm, and an empty map (every summary read as stored) when no summary item is
 * restricted or the reader is an environment admin.
 */
export function readerSummaryKeys(db: Db, access: EnvironmentAccess): Promise<SummaryKeys> {
  if (isEnvironmentAdmin(access)) return Promise.resolve(NO_KEYS);
  return configCached(access, 'summary-keys', async () => {
    const rows = await db
      .selectFrom('display_item as i')
      .innerJoin('def_dossier_def_field as d', 'd.id', 'i.def_dossier_def_field_id')
      .select([...SUMMARY_RULE_COLUMNS, 'i.def_dossier_id'])
      .where('i.environment_id', '=', access.environment.id)
      .where('i.view', '=', 'summary')
      .execute();
    const byEntity = new Map<number, SummaryItemRule[]>();
    for (const row of rows)
      byEntity.set(row.def_dossier_id, [...(byEntity.get(row.def_dossier_id) ?? []), summaryItemRule(row)]);
    const keys = new Map<number, string>();
    for (const [entityId, items] of byEntity) {
      const key = readerSummaryKey(access, items);
      if (key !== null) keys.set(entityId, key);
    }
    return keys.size ? keys : NO_KEYS;
  });
}
