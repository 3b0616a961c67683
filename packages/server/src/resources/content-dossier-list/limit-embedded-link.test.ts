import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildDisplayPosition,
  buildDossier,
  buildLink,
  buildPermission,
} from '../../../test/entity-factories';
import { addMember, buildDefDossier, buildEnvironment, buildRole } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';
import { indexJobsIdle } from '../../query/index-jobs';

// The link setting limit_embedded_link: the embedded list of link `hours` on a case shows only the
// hours whose own link `booked on` (a link of the Hour entity back to Case) holds that case too, and an
// hour added in that list is booked on the case. Enforced by the list and create calls themselves.

let t: TestApp;
let admin: TestClient;
let member: TestClient;
let envId: number;
let hourEntityId: number;
const link: Record<string, number> = {};
const item: Record<string, number> = {};
const caseId: Record<string, number> = {};
const hour: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const [a, m] = await Promise.all([t.signIn(), t.signIn()]);
  admin = a.client;
  member = m.client;
  const environment = await buildEnvironment(t.db, {
    members: [{ user: a.user, credentials: ['environment-admin'] }],
  });
  envId = environment.id;
  const reader = await buildRole(t.db, envId, 'Reader');
  await addMember(t.db, envId, { user: m.user, roleIds: [reader.id] });

  const caseEntity = await buildDefDossier(t.db, envId, { name: 'Case' });
  const hourEntity = await buildDefDossier(t.db, envId, { name: 'Hour' });
  const person = await buildDefDossier(t.db, envId, { name: 'Person' });
  hourEntityId = hourEntity.id;
  await buildPermission(t.db, caseEntity, reader.id, ['show']);
  await buildPermission(t.db, hourEntity, reader.id, ['show', 'create']);

  // Case -> Hour: the embedded lists; Hour -> Case: the links their children must hold the case through
  const hours = await buildLink(t.db, caseEntity, hourEntity, { name: 'hours', typeOfLink: 'embeddedList' });
  const bookedOn = await buildLink(t.db, hourEntity, caseEntity, { name: 'booked on' });
  const reviewed = await buildLink(t.db, caseEntity, hourEntity, { name: 'reviewed' });
  const reviewedBack = await t.db
    .insertInto('def_dossier_link')
    .values({
      environment_id: envId,
      def_dossier_id: hourEntity.id,
      child_def_dossier_id: caseEntity.id,
      back_link_id: reviewed.id,
      name: 'reviewed in',
      type_of_link: 'select',
      settings: {},
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable('def_dossier_link')
    .set({ back_link_id: reviewedBack.id })
    .where('id', '=', reviewed.id)
    .execute();
  const approved = await buildLink(t.db, caseEntity, hourEntity, {
    name: 'approved hours',
    typeOfLink: 'embeddedList',
  });
  const contact = await buildLink(t.db, hourEntity, person, { name: 'contact' });
  Object.assign(link, {
    hours: hours.id,
    bookedOn: bookedOn.id,
    reviewed: reviewed.id,
    reviewedBack: reviewedBack.id,
    approved: approved.id,
    contact: contact.id,
  });
  await setLimit(link.hours, link.bookedOn);
  // limited through a backlink: its rows are stored under `reviewed`, from the case's side
  await setLimit(link.approved, link.reviewedBack);

  // the Hour's list column and create form: its title and the 'booked on' link
  const position = await buildDisplayPosition(t.db, hourEntity, { type: 'main_content' });
  const titleBase = await buildDefField(t.db, envId, { type: 'text' });
  const title = await buildDataField(t.db, hourEntity, titleBase.id, { name: 'title' });
  await buildDisplayItem(t.db, hourEntity, { dataFieldId: title.id, view: 'list' });
  item.title = (
    await buildDisplayItem(t.db, hourEntity, { dataFieldId: title.id, positionId: position.id })
  ).id;
  item.bookedOn = (
    await buildDisplayItem(t.db, hourEntity, { linkId: link.bookedOn, positionId: position.id, rank: 2 })
  ).id;

  caseId.first = await buildDossier(t.db, caseEntity, 'First case');
  caseId.second = await buildDossier(t.db, caseEntity, 'Second case');
  for (const n of [1, 2, 3, 4, 5]) hour[n] = await buildDossier(t.db, hourEntity, `Hour ${n}`);
  const rows: [number, number, number][] = [
    // link, parent, child
    [link.hours, caseId.first, hour[1]],
    [link.hours, caseId.first, hour[2]],
    [link.hours, caseId.first, hour[3]],
    [link.hours, caseId.first, hour[4]],
    [link.hours, caseId.second, hour[3]],
    [link.hours, caseId.second, hour[5]],
    // booked on: hour 1 and 3 on the first case, 2 and 5 on the second, 4 on none
    [link.bookedOn, hour[1], caseId.first],
    [link.bookedOn, hour[2], caseId.second],
    [link.bookedOn, hour[3], caseId.first],
    [link.bookedOn, hour[5], caseId.second],
    [link.approved, caseId.first, hour[1]],
    [link.approved, caseId.first, hour[2]],
    [link.approved, caseId.first, hour[4]],
    // reviewed (read from the hour as 'reviewed in'): hour 2 in the first case, hour 4 in the second
    [link.reviewed, caseId.first, hour[2]],
    [link.reviewed, caseId.second, hour[4]],
  ];
  await t.db
    .insertInto('content_link')
    .values(
      rows.map(([link_id, parent_id, child_id]) => ({ environment_id: envId, link_id, parent_id, child_id })),
    )
    .execute();
});

afterAll(async () => {
  await indexJobsIdle(t.db);
  await t.close();
});

async function setLimit(linkId: number, limit: number | null) {
  await t.db
    .updateTable('def_dossier_link')
    .set({ settings: { limit_embedded_link: limit } })
    .where('id', '=', linkId)
    .execute();
}

/** The summaries of the embedded list of `linkId` on `parent`, newest first (the default order). */
async function embeddedList(client: TestClient, parent: number, linkId: number) {
  const response = await client.get(
    `/api/contentdossier?defDossier=${hourEntityId}&environment=${envId}&embedded=${parent}&linkId=${linkId}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as { results: { dossiers: { summary: string }[] }; pager: { items: number } };
  expect(body.pager.items).toBe(body.results.dossiers.length);
  return body.results.dossiers.map((d) => d.summary);
}

describe('limit_embedded_link', () => {
  it('lists only the children whose limit link holds the parent', async () => {
    expect(await embeddedList(admin, caseId.first, link.hours)).toEqual(['Hour 3', 'Hour 1']);
    expect(await embeddedList(admin, caseId.second, link.hours)).toEqual(['Hour 5']);
    // the same for a member: the server narrows the list, whoever asks
    expect(await embeddedList(member, caseId.first, link.hours)).toEqual(['Hour 3', 'Hour 1']);
  });

  it('reads a limit link that is a backlink from the side its rows are stored on', async () => {
    expect(await embeddedList(admin, caseId.first, link.approved)).toEqual(['Hour 2']);
  });

  it('lists every linked child without the setting, or when it names no link back to the parent', async () => {
    await setLimit(link.hours, null);
    expect(await embeddedList(admin, caseId.first, link.hours)).toEqual([
      'Hour 4',
      'Hour 3',
      'Hour 2',
      'Hour 1',
    ]);
    // a link of the child entity to another entity could never hold the case: the setting is ignored
    await setLimit(link.hours, link.contact);
    expect(await embeddedList(admin, caseId.first, link.hours)).toEqual([
      'Hour 4',
      'Hour 3',
      'Hour 2',
      'Hour 1',
    ]);
    // a link of another entity (the case's own) is not a limit link of the hours either
    await setLimit(link.hours, link.reviewed);
    expect(await embeddedList(admin, caseId.second, link.hours)).toEqual(['Hour 5', 'Hour 3']);
    await setLimit(link.hours, link.bookedOn);
  });

  it('links an hour added in the list to the case through the limit link as well', async () => {
    const create = (values: Record<string, unknown>) =>
      member.post('/api/contentdossier', {
        defDossier: hourEntityId,
        values,
        embedded: caseId.second,
        linkId: link.hours,
      });
    const added = await create({ [item.title]: 'Hour 6' });
    expect(added.statusCode, added.body).toBe(201);
    const id = (added.json() as { id: number }).id;
    const booked = await t.db
      .selectFrom('content_link')
      .select(['parent_id', 'child_id'])
      .where('environment_id', '=', envId)
      .where('link_id', '=', link.bookedOn)
      .where('parent_id', '=', id)
      .execute();
    expect(booked.map((row) => [Number(row.parent_id), Number(row.child_id)])).toEqual([[id, caseId.second]]);
    expect(await embeddedList(member, caseId.second, link.hours)).toEqual(['Hour 6', 'Hour 5']);

    // a form that books the hour elsewhere itself is taken as sent: the hour is not listed here
    const elsewhere = await create({ [item.title]: 'Hour 7', [item.bookedOn]: [caseId.first] });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    expect(await embeddedList(member, caseId.second, link.hours)).toEqual(['Hour 6', 'Hour 5']);
    expect(await embeddedList(member, caseId.first, link.hours)).toEqual(['Hour 3', 'Hour 1']);
  });

  it('links through a backlink limit from the side its rows are stored on', async () => {
    const added = await admin.post('/api/contentdossier', {
      defDossier: hourEntityId,
      values: { [item.title]: 'Hour 8' },
      embedded: caseId.first,
      linkId: link.approved,
    });
    expect(added.statusCode, added.body).toBe(201);
    const id = (added.json() as { id: number }).id;
    const reviewed = await t.db
      .selectFrom('content_link')
      .select(['parent_id'])
      .where('environment_id', '=', envId)
      .where('link_id', '=', link.reviewed)
      .where('child_id', '=', id)
      .execute();
    expect(reviewed.map((row) => Number(row.parent_id))).toEqual([caseId.first]);
    expect(await embeddedList(admin, caseId.first, link.approved)).toEqual(['Hour 8', 'Hour 2']);
  });
});
