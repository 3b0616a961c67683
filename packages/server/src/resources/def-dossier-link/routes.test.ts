import { randomUUID } from 'node:crypto';
import { ENTITY_MESSAGES, REQUIRED_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDisplayItem, buildDisplayPosition, buildLink } from '../../../test/entity-factories';
import { adminSetup, expectForbidden, expectNotFound } from '../../../test/entity-test-setup';
import { buildDefDossier } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';
import { NOT_IN_ENVIRONMENT } from '../def-dossier-def-field/shared';
import { BACKLINK_MISMATCH, NAME_TAKEN, PLACED_LINK } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name);

async function setup() {
  const s = await adminSetup(t);
  const parent = await buildDefDossier(t.db, s.environment.id, { name: 'Client' });
  const child = await buildDefDossier(t.db, s.environment.id, { name: 'Case file' });
  return { ...s, parent, child };
}

const linkBody = (
  environment: number,
  parent: number,
  child: number,
  extra: Record<string, unknown> = {},
) => ({
  environment,
  defDossier: parent,
  childDefDossier: child,
  name: 'link',
  typeOfLink: 'select',
  ...extra,
});

const getLink = async (client: TestClient, id: number) =>
  (await client.get(`/api/defdossierlink/${id}`)).json();

describe('/api/defdossierlink', () => {
  test('creating a link also creates its backlink on the child entity', async () => {
    const { environment, admin, parent, child } = await setup();
    const uuid = randomUUID();
    const created = await admin.post(
      '/api/defdossierlink',
      linkBody(environment.id, parent.id, child.id, {
        uuid,
        name: ' Case  files!! ',
        settings: { clickable: true },
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json();
    expect(link).toEqual({
      id: expect.any(Number),
      uuid,
      environment_id: environment.id,
      def_dossier_id: parent.id,
      child_def_dossier_id: child.id,
      back_link_id: expect.any(Number),
      name: 'Case_files_',
      type_of_link: 'select',
      cascade_rule: 'maintain',
      archive_cascade_rule: '',
      obligatory: false,
      locked: false,
      disable_backlink: false,
      settings: { clickable: true },
    });
    const backlink = await getLink(admin, link.back_link_id);
    expect(backlink).toMatchObject({
      def_dossier_id: child.id,
      child_def_dossier_id: parent.id,
      back_link_id: link.id,
      type_of_link: 'embeddedList',
      name: 'Client',
    });
    expect(await getLink(admin, link.id)).toEqual(link);

    // A second link between the same entities: the backlink name gets a suffix.
    const second = (
      await admin.post(
        '/api/defdossierlink',
        linkBody(environment.id, parent.id, child.id, { name: 'second' }),
      )
    ).json();
    expect((await getLink(admin, second.back_link_id)).name).toBe('Client_2');
    const third = (
      await admin.post(
        '/api/defdossierlink',
        linkBody(environment.id, parent.id, child.id, { name: 'third' }),
      )
    ).json();
    expect((await getLink(admin, third.back_link_id)).name).toBe('Client_3');

    // Without backlink.
    const lonely = await admin.post(
      '/api/defdossierlink',
      linkBody(environment.id, parent.id, child.id, {
        name: 'lonely',
        disable_backlink: true,
        typeOfLink: 'embeddedList',
      }),
    );
    expect(lonely.json()).toMatchObject({
      back_link_id: null,
      disable_backlink: true,
      type_of_link: 'embeddedList',
    });
    const onChild = await admin.get(`/api/defdossierlink?defDossier=${child.id}`);
    expect(names(onChild.json())).toEqual(['Client', 'Client_2', 'Client_3']);

    // A link of an entity to itself: the backlink lands on the same entity under a free name.
    const self = (
      await admin.post(
        '/api/defdossierlink',
        linkBody(environment.id, parent.id, parent.id, { name: 'Client' }),
      )
    ).json();
    const selfBack = await getLink(admin, self.back_link_id);
    expect(selfBack).toMatchObject({
      def_dossier_id: parent.id,
      child_def_dossier_id: parent.id,
      name: 'Client_2',
    });
  });

  test('create rules', async () => {
    const { environment, otherEnvironment, admin, parent, child } = await setup();
    const body = linkBody(environment.id, parent.id, child.id, { name: 'Once' });
    expect((await admin.post('/api/defdossierlink', body)).statusCode).toBe(201);
    const again = await admin.post('/api/defdossierlink', { ...body, name: 'Once ' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ errors: { name: NAME_TAKEN } });

    const missing = await admin.post('/api/defdossierlink', {
      environment: environment.id,
      defDossier: parent.id,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toMatchObject({
      name: REQUIRED_MESSAGE,
      typeOfLink: REQUIRED_MESSAGE,
      childDefDossier: REQUIRED_MESSAGE,
    });
    const badType = await admin.post('/api/defdossierlink', { ...body, name: 'x', typeOfLink: 'many' });
    expect(badType.json()).toEqual({ errors: { typeOfLink: REQUIRED_MESSAGE } });
    const badCascade = await admin.post('/api/defdossierlink', {
      ...body,
      name: 'x',
      cascadeRule: 'explode',
    });
    expect(Object.keys(badCascade.json().errors)).toEqual(['cascadeRule']);

    const foreign = await buildDefDossier(t.db, otherEnvironment.id);
    const crossChild = await admin.post('/api/defdossierlink', {
      ...body,
      name: 'x',
      childDefDossier: foreign.id,
    });
    expect(crossChild.statusCode).toBe(400);
    expect(crossChild.json()).toEqual({ errors: { childDefDossier: NOT_IN_ENVIRONMENT } });
    const crossParent = await admin.post('/api/defdossierlink', {
      ...body,
      name: 'x',
      defDossier: foreign.id,
    });
    expect(crossParent.json()).toEqual({ errors: { defDossier: NOT_IN_ENVIRONMENT } });
    // Nothing was left behind by the refusals.
    const all = await admin.get(`/api/defdossierlink?environment=${environment.id}`);
    expect(all.json().pager.items).toBe(2);
  });

  test('lists with paging, search and the backlink lookup', async () => {
    const { environment, otherEnvironment, admin, parent, child } = await setup();
    const created = [];
    for (const name of ['delta', 'Alpha', 'charlie', 'Bravo', 'alpha_2']) {
      created.push(
        (
          await admin.post('/api/defdossierlink', linkBody(environment.id, parent.id, child.id, { name }))
        ).json(),
      );
    }
    const foreignEntity = await buildDefDossier(t.db, otherEnvironment.id);
    await buildLink(t.db, foreignEntity, foreignEntity, { name: 'alpha_foreign' });

    const first = await admin.get(`/api/defdossierlink?defDossier=${parent.id}&limit=2`);
    expect(first.statusCode).toBe(200);
    expect(first.json().pager).toEqual({ current: 0, pages: 3, items: 5, limit: 2 });
    expect(names(first.json())).toEqual(['Alpha', 'alpha_2']);
    expect(
      names((await admin.get(`/api/defdossierlink?defDossier=${parent.id}&limit=2&page=2`)).json()),
    ).toEqual(['delta']);
    const search = await admin.get(`/api/defdossierlink?environment=${environment.id}&search=alpha`);
    expect(names(search.json())).toEqual(['Alpha', 'alpha_2']);

    // GET link by back_link_id: the backlink of 'charlie'.
    const charlie = created[2];
    const lookup = await admin.get(
      `/api/defdossierlink?environment=${environment.id}&child_def_dossier_id=${parent.id}&back_link_id=${charlie.id}`,
    );
    expect(lookup.json().results.map((r: { id: number }) => r.id)).toEqual([charlie.back_link_id]);
    const byUuid = await admin.get(`/api/defdossierlink?environment=${environment.id}&uuid=${charlie.uuid}`);
    expect(byUuid.json().results.map((r: { id: number }) => r.id)).toEqual([charlie.id]);
    for (const query of [
      '',
      `defDossier=${parent.id}&limit=501`,
      `environment=${environment.id}&back_link_id=x`,
    ]) {
      expect((await admin.get(`/api/defdossierlink?${query}`)).statusCode, query).toBe(400);
    }
  });

  test('patch: fields change, the entity is fixed, a locked link only unlocks', async () => {
    const { environment, admin, parent, child } = await setup();
    const link = (
      await admin.post(
        '/api/defdossierlink',
        linkBody(environment.id, parent.id, child.id, { name: 'cases' }),
      )
    ).json();
    const url = `/api/defdossierlink/${link.id}`;
    const patched = await admin.patch(url, {
      name: 'all cases',
      obligatory: true,
      cascadeRule: 'delete',
      archiveCascadeRule: 'archive',
      typeOfLink: 'embeddedList',
      settings: { views: ['list'] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toEqual({
      ...link,
      name: 'all_cases',
      obligatory: true,
      cascade_rule: 'delete',
      archive_cascade_rule: 'archive',
      type_of_link: 'embeddedList',
      settings: { views: ['list'] },
    });
    // Left-out fields stay.
    expect((await admin.patch(url, { name: 'cases' })).json()).toMatchObject({
      obligatory: true,
      cascade_rule: 'delete',
    });

    const other = await buildDefDossier(t.db, environment.id);
    const moved = await admin.patch(url, { childDefDossier: other.id });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toEqual({ errors: { childDefDossier: ENTITY_MESSAGES.linkEntityFixed } });
    expect((await admin.patch(url, { childDefDossier: child.id })).statusCode).toBe(200);

    const taken = await admin.patch(url, { name: link.back_link_id ? 'Client' : 'x' });
    expect(taken.statusCode).toBe(200); // the backlink's name lives on the child entity
    await admin.post('/api/defdossierlink', linkBody(environment.id, parent.id, child.id, { name: 'busy' }));
    const clash = await admin.patch(url, { name: 'busy' });
    expect(clash.json()).toEqual({ errors: { name: NAME_TAKEN } });

    expect((await admin.patch(url, { locked: true })).json().locked).toBe(true);
    for (const change of [{ name: 'renamed' }, { obligatory: false }, { locked: false, settings: {} }]) {
      const response = await admin.patch(url, change);
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json()).toEqual({ errors: { locked: ENTITY_MESSAGES.locked } });
    }
    const unlocked = await admin.patch(url, { locked: false, name: 'Client', obligatory: true });
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    expect(unlocked.json().locked).toBe(false);
  });

  test('PATCH /backlink ties a link and its backlink found by uuid', async () => {
    const { environment, otherEnvironment, admin, member, outsider, parent, child } = await setup();
    const link = await buildLink(t.db, parent, child, { name: 'to_child' });
    const back = await buildLink(t.db, child, parent, { name: 'to_parent' });
    const body = {
      environment: environment.id,
      uuid: link.uuid,
      backlinkUuid: back.uuid,
      defDossier: parent.id,
      childDefDossier: child.id,
    };
    expectForbidden(await member.patch('/api/defdossierlink/backlink', body), 'member');
    expectNotFound(await outsider.patch('/api/defdossierlink/backlink', body), 'outsider');
    // The outsider naming their own environment does not find our links.
    const outsiderOwn = await outsider.patch('/api/defdossierlink/backlink', {
      ...body,
      environment: otherEnvironment.id,
    });
    expect(outsiderOwn.statusCode).toBe(404);

    const tied = await admin.patch('/api/defdossierlink/backlink', body);
    expect(tied.statusCode, tied.body).toBe(200);
    expect(tied.json()).toMatchObject({ id: link.id, back_link_id: back.id });
    expect((await getLink(admin, back.id)).back_link_id).toBe(link.id);

    const missing = await admin.patch('/api/defdossierlink/backlink', {
      ...body,
      backlinkUuid: randomUUID(),
    });
    expect(missing.statusCode).toBe(404);
    expect(
      (await admin.patch('/api/defdossierlink/backlink', { ...body, uuid: randomUUID() })).statusCode,
    ).toBe(404);
    const swapped = await admin.patch('/api/defdossierlink/backlink', {
      ...body,
      defDossier: child.id,
      childDefDossier: parent.id,
    });
    expect(swapped.statusCode).toBe(400);
    expect(swapped.json()).toEqual({ errors: { defDossier: BACKLINK_MISMATCH } });
    const third = await buildDefDossier(t.db, environment.id);
    const wrongChild = await admin.patch('/api/defdossierlink/backlink', {
      ...body,
      childDefDossier: third.id,
    });
    expect(wrongChild.json()).toEqual({ errors: { childDefDossier: BACKLINK_MISMATCH } });
    const invalid = await admin.patch('/api/defdossierlink/backlink', { ...body, backlinkUuid: 'nope' });
    expect(Object.keys(invalid.json().errors)).toEqual(['backlinkUuid']);
  });

  test('delete: refused while placed (naming the placements), takes the backlink along', async () => {
    const { environment, admin, parent, child } = await setup();
    const link = (
      await admin.post(
        '/api/defdossierlink',
        linkBody(environment.id, parent.id, child.id, { name: 'cases' }),
      )
    ).json();
    const tab = await buildDisplayPosition(t.db, parent, { name: 'Cases', type: 'tab' });
    const placed = await buildDisplayItem(t.db, parent, {
      linkId: link.id,
      positionId: tab.id,
      view: 'show',
    });
    const refused = await admin.delete(`/api/defdossierlink/${link.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ errors: { defDossierLink: `${PLACED_LINK}. Placed in Cases (show)` } });
    await admin.delete(`/api/displayitem/${placed.id}`);

    // A placed backlink blocks too: deleting would take its display items along.
    const backItem = await buildDisplayItem(t.db, child, { linkId: link.back_link_id, view: 'list' });
    const refusedBack = await admin.delete(`/api/defdossierlink/${link.id}`);
    expect(refusedBack.json()).toEqual({ errors: { defDossierLink: `${PLACED_LINK}. Placed in list view` } });
    await admin.delete(`/api/displayitem/${backItem.id}`);

    expect((await admin.delete(`/api/defdossierlink/${link.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/defdossierlink/${link.id}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/defdossierlink/${link.back_link_id}`)).statusCode).toBe(404);
  });

  test('only admins of the environment: members and other admins are refused on every call', async () => {
    const { environment, otherEnvironment, admin, member, outsider, parent, child } = await setup();
    const link = (
      await admin.post(
        '/api/defdossierlink',
        linkBody(environment.id, parent.id, child.id, { name: 'secret_link' }),
      )
    ).json();
    const calls = (client: TestClient) =>
      [
        ['list by entity', () => client.get(`/api/defdossierlink?defDossier=${parent.id}`)],
        ['list by environment', () => client.get(`/api/defdossierlink?environment=${environment.id}`)],
        ['get', () => client.get(`/api/defdossierlink/${link.id}`)],
        ['post', () => client.post('/api/defdossierlink', linkBody(environment.id, parent.id, child.id))],
        ['patch', () => client.patch(`/api/defdossierlink/${link.id}`, { name: 'hacked' })],
        ['delete', () => client.delete(`/api/defdossierlink/${link.id}`)],
      ] as const;
    for (const [what, call] of calls(member)) expectForbidden(await call(), `member ${what}`);
    for (const [what, call] of calls(outsider)) {
      const response = await call();
      expectNotFound(response, `outsider ${what}`);
      expect(response.body).not.toContain('secret_link');
    }
    for (const [what, call] of calls(t.client())) expect((await call()).statusCode, what).toBe(401);

    // Linking their entity to ours (or the reverse) from their environment is refused.
    const theirs = await buildDefDossier(t.db, otherEnvironment.id);
    const toOurs = await outsider.post(
      '/api/defdossierlink',
      linkBody(otherEnvironment.id, theirs.id, parent.id),
    );
    expect(toOurs.statusCode).toBe(400);
    expect(toOurs.json()).toEqual({ errors: { childDefDossier: NOT_IN_ENVIRONMENT } });
    const fromOurs = await outsider.post(
      '/api/defdossierlink',
      linkBody(otherEnvironment.id, parent.id, theirs.id),
    );
    expect(fromOurs.json()).toEqual({ errors: { defDossier: NOT_IN_ENVIRONMENT } });
    const list = await outsider.get(
      `/api/defdossierlink?environment=${otherEnvironment.id}&defDossier=${parent.id}`,
    );
    expect(list.statusCode).toBe(404);
    expect((await getLink(admin, link.id)).name).toBe('secret_link');
  });
});
