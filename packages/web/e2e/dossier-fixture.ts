// An entity with one data field of every field type in the Demo environment, for the dossier
// scenarios. Built straight in the database with the server's test factories.
import type { Db } from '../../server/src/db/database';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildDisplayPosition,
  buildDossier,
  buildLink,
  buildListOption,
  buildPermission,
} from '../../server/test/entity-factories';
import { buildDefDossier } from '../../server/test/factories';

type Entity = Awaited<ReturnType<typeof buildDefDossier>>;

export interface FixtureField {
  /** display item id on its tab (the key of create/edit values) */
  itemId: number;
  /** data field id (the key of content_dossier.values), null for the link */
  dataFieldId: number | null;
  type: string;
  name: string;
}

export interface EveryTypeEntity {
  environmentId: number;
  entity: Entity;
  /** the entity the `Organisation` link points at, with dossiers 'Acme' and 'Globex' */
  linked: Entity;
  linkedDossiers: { acme: number; globex: number };
  /** the Organisation link (def_dossier_link id) */
  linkId: number;
  /** the search display item (Name) of the linked entity */
  linkedSearchItemId: number;
  mainPositionId: number;
  tabPositionId: number;
  /** keyed by field name: Name, Notes, Amount, Website, Email, Number, Double, Code, Birth date,
   * Start time, Attachment, Location, Status, Category, Owner, Organisation (link), Action, Created,
   * Creator, Secret (hidden from the Caseworker role) and Remarks (on the second tab) */
  fields: Record<string, FixtureField>;
  /** list options of Status: Open (green), Closed (red); tree options of Category: Parent, Child */
  options: { open: number; closed: number; parent: number; child: number };
  /** the field Caseworkers may not see */
  hiddenFieldName: 'Secret';
  caseworkerRoleId: number;
  adminUserId: number;
  demoUserId: number;
}

async function demoEnvironment(db: Db) {
  const environment = await db
    .selectFrom('environment')
    .select('id')
    .where('name', '=', 'Demo')
    .executeTakeFirstOrThrow();
  const role = await db
    .selectFrom('role')
    .select('id')
    .where('environment_id', '=', environment.id)
    .where('name', '=', 'Caseworker')
    .executeTakeFirstOrThrow();
  const users = await db.selectFrom('app_user').select(['id', 'username']).execute();
  const userId = (name: string) => Number(users.find((u) => u.username === name)?.id);
  return { environmentId: environment.id, roleId: role.id, adminId: userId('admin'), demoId: userId('demo') };
}

export const insertDossier = buildDossier;

/** Builds the entity `name` (default 'Person') with every field type, in the Demo environment. */
export async function buildEveryTypeEntity(db: Db, name = 'Person'): Promise<EveryTypeEntity> {
  const demo = await demoEnvironment(db);
  const env = demo.environmentId;
  const entity = await buildDefDossier(db, env, { name });
  const linked = await buildDefDossier(db, env, { name: `${name} organisation`, type: 'other' });
  const main = await buildDisplayPosition(db, entity, { name: 'General', type: 'main_content', rank: 1 });
  const tab = await buildDisplayPosition(db, entity, { name: 'Details', type: 'tab', rank: 2 });
  const linkedMain = await buildDisplayPosition(db, linked, {
    name: 'General',
    type: 'main_content',
    rank: 1,
  });

  const fields: Record<string, FixtureField> = {};
  let rank = 0;
  const add = async (
    type: string,
    fieldName: string,
    opts: {
      settings?: Record<string, unknown>;
      obligatory?: boolean;
      positionId?: number;
      roles?: number[];
    } = {},
  ) => {
    const base = await buildDefField(db, env, {
      type,
      name: `${name} ${fieldName}`,
      settings: opts.settings ?? {},
    });
    const dataField = await buildDataField(db, entity, base.id, {
      name: fieldName,
      obligatory: opts.obligatory ?? false,
    });
    rank += 1;
    const item = await buildDisplayItem(db, entity, {
      dataFieldId: dataField.id,
      positionId: opts.positionId ?? main.id,
      view: 'show/edit',
      rank,
      roles: opts.roles ?? [],
    });
    fields[fieldName] = { itemId: item.id, dataFieldId: dataField.id, type, name: fieldName };
    return { base, dataField, item };
  };

  const nameField = await add('text', 'Name', {
    obligatory: true,
    settings: { validators: ['UniqueValue'] },
  });
  await add('textarea', 'Notes');
  await add('amount', 'Amount', { settings: { decimals: 2, currency: 'EUR' } });
  await add('url', 'Website');
  await add('email', 'Email');
  const number = await add('autoIncrement', 'Number', { settings: { prefix: 'P-' } });
  await add('calc', 'Double', { settings: { formula: '{Amount} * 2' } });
  await add('imageCode', 'Code', { settings: { type: 'qrcode' } });
  await add('date', 'Birth date');
  await add('time', 'Start time');
  await add('file', 'Attachment');
  await add('geolocation', 'Location');
  const status = await add('list', 'Status');
  const category = await add('tree', 'Category');
  await add('user', 'Owner');
  await add('customActionButton', 'Action');
  await add('systemdate', 'Created');
  await add('systemuser', 'Creator');
  await add('text', 'Secret', { roles: [] });
  await add('text', 'Remarks', { positionId: tab.id });

  const open = await buildListOption(db, status.base.id, { text: 'Open', color: '#2f9e44', rank: 1 });
  const closed = await buildListOption(db, status.base.id, { text: 'Closed', color: '#e03131', rank: 2 });
  const parent = await buildListOption(db, category.base.id, { text: 'Parent', rank: 1 });
  // Tree options are stored like list options (the hierarchy is not modelled yet).
  const child = await buildListOption(db, category.base.id, { text: 'Child', rank: 2 });

  // The link to organisations (single select), shown on the main tab.
  const link = await buildLink(db, entity, linked, { name: 'Organisation' });
  rank += 1;
  const linkItem = await buildDisplayItem(db, entity, { linkId: link.id, positionId: main.id, rank });
  fields.Organisation = { itemId: linkItem.id, dataFieldId: null, type: 'link', name: 'Organisation' };

  // Secret is shown only to an admin-only role: Caseworkers (the demo user) never see it.
  const adminOnly = await db
    .insertInto('role')
    .values({ environment_id: env, name: `${name} administrators`, translations: '[]' })
    .returning('id')
    .executeTakeFirstOrThrow();

  // Lists, searches and the summary (Name, then Number).
  const listed = ['Name', 'Amount', 'Birth date', 'Status', 'Owner', 'Email', 'Secret'];
  for (const [i, fieldName] of listed.entries()) {
    const dataFieldId = fields[fieldName].dataFieldId;
    await buildDisplayItem(db, entity, { dataFieldId, view: 'list', rank: i + 1 });
    await buildDisplayItem(db, entity, { dataFieldId, view: 'search', rank: i + 1 });
  }
  await buildDisplayItem(db, entity, { linkId: link.id, view: 'list', rank: listed.length + 1 });
  await buildDisplayItem(db, entity, { dataFieldId: nameField.dataField.id, view: 'summary', rank: 1 });
  await buildDisplayItem(db, entity, { dataFieldId: number.dataField.id, view: 'summary', rank: 2 });

  // Every display item of Secret (tab, list, search) is for the admin-only role.
  await db
    .updateTable('display_item')
    .set({ roles: [adminOnly.id], permissions_type: 'INCLUDE_SELECTED_ROLES' })
    .where('def_dossier_def_field_id', '=', fields.Secret.dataFieldId)
    .execute();

  // The linked entity: a Name field as its summary.
  const orgName = await buildDefField(db, env, { type: 'text', name: `${name} organisation name` });
  const orgNameData = await buildDataField(db, linked, orgName.id, { name: 'Name' });
  await buildDisplayItem(db, linked, { dataFieldId: orgNameData.id, positionId: linkedMain.id });
  await buildDisplayItem(db, linked, { dataFieldId: orgNameData.id, view: 'list' });
  await buildDisplayItem(db, linked, { dataFieldId: orgNameData.id, view: 'summary' });
  // searchable: the link picker's filter modal shows it
  const orgSearch = await buildDisplayItem(db, linked, { dataFieldId: orgNameData.id, view: 'search' });
  const acme = await insertDossier(db, linked, 'Acme', { [orgNameData.id]: 'Acme' });
  const globex = await insertDossier(db, linked, 'Globex', { [orgNameData.id]: 'Globex' });

  for (const e of [entity, linked])
    await buildPermission(db, e, demo.roleId, ['show', 'create', 'edit', 'delete', 'export', 'dossierlog']);

  return {
    environmentId: env,
    entity,
    linked,
    linkedDossiers: { acme, globex },
    linkId: link.id,
    linkedSearchItemId: orgSearch.id,
    mainPositionId: main.id,
    tabPositionId: tab.id,
    fields,
    options: { open: open.id, closed: closed.id, parent: parent.id, child: child.id },
    hiddenFieldName: 'Secret',
    caseworkerRoleId: demo.roleId,
    adminUserId: demo.adminId,
    demoUserId: demo.demoId,
  };
}

/** Inserts dossiers straight into the table; rows are keyed by field name; summary = Name. */
export async function insertDossiers(
  db: Db,
  fixture: EveryTypeEntity,
  rows: Record<string, unknown>[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const row of rows) {
    const values: Record<string, unknown> = {};
    for (const [fieldName, value] of Object.entries(row)) {
      const field = fixture.fields[fieldName];
      if (!field) throw new Error(`insertDossiers: unknown field ${fieldName}`);
      if (field.dataFieldId === null) continue;
      values[String(field.dataFieldId)] = value;
    }
    ids.push(await insertDossier(db, fixture.entity, String(row.Name ?? ''), values));
  }
  return ids;
}
