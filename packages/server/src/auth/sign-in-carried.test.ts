import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildPermission,
  setItemRoles,
} from '../../test/entity-factories';
import { addMember, buildDefDossier, buildEnvironment, buildRole } from '../../test/factories';
import { statementsOf } from '../../test/statements';
import { createTestApp, onPostgresServer, type TestApp, type TestClient } from '../../test/test-app';

// The list call carries its sign-in read in its page statement (withSignInCarried): every call still
// sees the standing of that moment, and a change of it counts on the very next call.

let t: TestApp;
let member: TestClient;
let memberId: number;
let envId: number;
let entityId: number;
let readerRoleId: number;
let secretRoleId: number;
let titleItem: number;
let secretItem: number;
let dossierId: number;

beforeAll(async () => {
  t = await createTestApp();
  const [a, m] = await Promise.all([t.signIn(), t.signIn()]);
  member = m.client;
  memberId = m.user.id;
  const environment = await buildEnvironment(t.db, {
    members: [{ user: a.user, credentials: ['environment-admin'] }],
  });
  envId = environment.id;
  readerRoleId = (await buildRole(t.db, envId, 'Reader')).id;
  secretRoleId = (await buildRole(t.db, envId, 'Secret')).id;
  await addMember(t.db, envId, { user: m.user, roleIds: [readerRoleId] });
  const entity = await buildDefDossier(t.db, envId, { name: 'Case' });
  entityId = entity.id;
  await buildPermission(t.db, entity, readerRoleId, ['show']);
  const field = async (type: string) =>
    buildDataField(t.db, entity, (await buildDefField(t.db, envId, { type })).id);
  const title = await field('text');
  const secret = await field('amount');
  titleItem = (await buildDisplayItem(t.db, entity, { dataFieldId: title.id, view: 'list' })).id;
  secretItem = (await buildDisplayItem(t.db, entity, { dataFieldId: secret.id, view: 'list' })).id;
  await setItemRoles(t.db, secretItem, 'INCLUDE_SELECTED_ROLES', [secretRoleId]);
  const row = await t.db
    .insertInto('content_dossier')
    .values({
      environment_id: envId,
      def_dossier_id: entityId,
      summary: 'Alpha',
      values: JSON.stringify({ [title.id]: 'Alpha', [secret.id]: 42 }) as never,
      created_by: a.user.id,
      modified_by: a.user.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  dossierId = Number(row.id);
});
afterAll(() => t.close());

const list = () => member.get(`/api/contentdossier?defDossier=${entityId}&environment=${envId}`);
/** The member's contents of the one dossier (200 expected). */
async function contents() {
  const response = await list();
  expect(response.statusCode, response.body).toBe(200);
  return response.json().results.contents[String(dossierId)] as Record<string, unknown>;
}
const setMembership = (values: { role_ids?: number[]; active?: boolean }) =>
  t.db
    .updateTable('environment_user')
    .set(values)
    .where('environment_id', '=', envId)
    .where('user_id', '=', memberId)
    .execute();

describe('the list call with its sign-in read carried by its page statement', () => {
  it.runIf(onPostgresServer())(
    'sends one statement where it sent two: the page carries the read',
    async () => {
      await contents();
      const sent = await statementsOf(contents);
      const reads = sent.filter((text) => text.includes('signed_in_read'));
      expect(reads).toHaveLength(1);
      expect(reads[0]).toContain('data_version');
    },
  );

  it('shows a field on the next call after a role that may see it is given, and hides it once taken', async () => {
    expect(await contents()).not.toHaveProperty(String(secretItem));
    await setMembership({ role_ids: [readerRoleId, secretRoleId] });
    expect((await contents())[secretItem]).toBe(42);
    expect((await contents())[secretItem]).toBe(42);
    await setMembership({ role_ids: [readerRoleId] });
    const after = await contents();
    expect(after).not.toHaveProperty(String(secretItem));
    expect(after[titleItem]).toBe('Alpha');
  });

  it('refuses a member deactivated since their last call (403), and answers again once reactivated', async () => {
    await contents();
    await setMembership({ active: false });
    expect((await list()).statusCode).toBe(403);
    expect((await list()).statusCode).toBe(403);
    await setMembership({ active: true });
    await contents();
  });

  it('answers 404 once the member is removed, 403 once the environment is switched off', async () => {
    await contents();
    await t.db.updateTable('environment').set({ active: false }).where('id', '=', envId).execute();
    expect((await list()).statusCode).toBe(403);
    await t.db.updateTable('environment').set({ active: true }).where('id', '=', envId).execute();
    await contents();
    await t.db
      .deleteFrom('environment_user')
      .where('environment_id', '=', envId)
      .where('user_id', '=', memberId)
      .execute();
    expect((await list()).statusCode).toBe(404);
    await addMember(t.db, envId, { user: { id: memberId }, roleIds: [readerRoleId] });
    await contents();
  });

  it('answers 401 once the session is ended elsewhere', async () => {
    await contents();
    await t.db.deleteFrom('user_session').where('user_id', '=', memberId).execute();
    expect((await list()).statusCode).toBe(401);
    expect((await list()).statusCode).toBe(401);
  });
});
