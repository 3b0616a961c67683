import type { PermissionAction } from '@dossierbase/core';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildDisplayPosition,
  buildDossier,
  buildLink,
  buildListOption,
  buildPermission,
} from '../../../test/entity-factories';
import { adminSetup } from '../../../test/entity-test-setup';
import { buildDefDossier, buildRole } from '../../../test/factories';
import type { TestApp } from '../../../test/test-app';

type Entity = Awaited<ReturnType<typeof buildDefDossier>>;

/** A text field with its data field and a show/edit display item on the position. */
export async function addField(
  t: TestApp,
  entity: Entity,
  positionId: number,
  type: string,
  name: string,
  opts: { settings?: Record<string, unknown>; obligatory?: boolean; view?: string; rank?: number } = {},
) {
  const base = await buildDefField(t.db, entity.environment_id, {
    type,
    name,
    settings: opts.settings ?? {},
  });
  const dataField = await buildDataField(t.db, entity, base.id, {
    name,
    obligatory: opts.obligatory ?? false,
  });
  const item = await buildDisplayItem(t.db, entity, {
    dataFieldId: dataField.id,
    positionId,
    view: opts.view ?? 'show/edit',
    rank: opts.rank ?? 1,
  });
  return { base, dataField, item };
}

export const insertDossier = (
  t: TestApp,
  entity: Entity,
  summary: string,
  values: Record<string, unknown> = {},
) => buildDossier(t.db, entity, summary, values);

/** Links each [parent, child] pair of dossiers through `linkId` (content_link rows, rank 0). */
export async function linkDossiers(
  t: TestApp,
  environmentId: number,
  linkId: number,
  pairs: [number, number][],
) {
  for (const [parent, child] of pairs)
    await t.db
      .insertInto('content_link')
      .values({ environment_id: environmentId, link_id: linkId, parent_id: parent, child_id: child, rank: 0 })
      .execute();
}

/** Client (all field types, links to Project) and Project, in an environment with admin and member. */
export async function dossierSetup(t: TestApp) {
  const s = await adminSetup(t);
  const env = s.environment.id;
  const client = await buildDefDossier(t.db, env, { name: 'Client' });
  const project = await buildDefDossier(t.db, env, { name: 'Project' });
  const main = await buildDisplayPosition(t.db, client, { name: 'General', type: 'main_content', rank: 1 });
  const tab = await buildDisplayPosition(t.db, client, { name: 'Extra', type: 'tab', rank: 2 });
  const name = await addField(t, client, main.id, 'text', 'name', {
    obligatory: true,
    settings: { validators: ['UniqueValue'], size: 255 },
  });
  const notes = await addField(t, client, main.id, 'textarea', 'notes');
  const amount = await addField(t, client, main.id, 'amount', 'amount', { settings: { decimals: 2 } });
  const date = await addField(t, client, main.id, 'date', 'birth');
  const list = await addField(t, client, main.id, 'list', 'colour');
  const red = await buildListOption(t.db, list.base.id, { text: 'Red' });
  const blue = await buildListOption(t.db, list.base.id, { text: 'Blue' });
  const user = await addField(t, client, main.id, 'user', 'owner');
  const email = await addField(t, client, main.id, 'email', 'email');
  const url = await addField(t, client, main.id, 'url', 'site');
  const auto = await addField(t, client, main.id, 'autoIncrement', 'number', { settings: { prefix: 'C-' } });
  const calc = await addField(t, client, main.id, 'calc', 'double', {
    settings: { formula: '{amount} * 2' },
  });
  const extra = await addField(t, client, tab.id, 'text', 'extra');
  // Summary: name then number.
  await buildDisplayItem(t.db, client, { dataFieldId: name.dataField.id, view: 'summary', rank: 1 });
  await buildDisplayItem(t.db, client, { dataFieldId: auto.dataField.id, view: 'summary', rank: 2 });

  const projects = await buildLink(t.db, client, project, { name: 'projects' });
  await t.db
    .updateTable('def_dossier_link')
    .set({ settings: { multiple: true } })
    .where('id', '=', projects.id)
    .execute();
  const lead = await buildLink(t.db, client, project, { name: 'lead' });
  const projectsItem = await buildDisplayItem(t.db, client, { linkId: projects.id, positionId: main.id });
  const leadItem = await buildDisplayItem(t.db, client, { linkId: lead.id, positionId: main.id });
  const p1 = await insertDossier(t, project, 'Alpha');
  const p2 = await insertDossier(t, project, 'Beta');

  const role = await buildRole(t.db, env);
  await t.db
    .updateTable('environment_user')
    .set({ role_ids: [role.id] })
    .where('environment_id', '=', env)
    .where('user_id', '=', s.memberId)
    .execute();
  const grant = async (entity: Entity, actions: PermissionAction[]) => {
    await t.db
      .deleteFrom('permission')
      .where('def_dossier_id', '=', entity.id)
      .where('role_id', '=', role.id)
      .execute();
    await buildPermission(t.db, entity, role.id, actions);
  };
  return {
    ...s,
    client,
    project,
    main,
    tab,
    fields: { name, notes, amount, date, list, user, email, url, auto, calc, extra },
    options: { red, blue },
    links: { projects, lead, projectsItem, leadItem },
    projectsDossiers: [p1, p2],
    role,
    grant,
  };
}

export type DossierSetup = Awaited<ReturnType<typeof dossierSetup>>;

export const key = (item: { id: number }) => String(item.id);
