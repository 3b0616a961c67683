import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLink } from '../../../test/entity-factories';
import { expectNotFound, expectRefused } from '../../../test/entity-test-setup';
import { addMember, buildDefDossier } from '../../../test/factories';
import type { TestClient } from '../../../test/test-app';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { type DossierSetup, dossierSetup, insertDossier } from '../content-dossier/fixture';
import { DISPLAY_ITEM_MESSAGES } from '../display-item/service';

// A block display item (settings block, block_link) names a block and a link of its own environment:
// an admin of two environments cannot put one environment's block on the other's dossier pages, and
// the block data call about a dossier refuses a block of another environment than the dossier's.

let t: TestApp;
let c: DossierSetup;
/** Environment admin of both environments. */
let both: TestClient;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  c = await dossierSetup(t);
  const signedIn = await t.signIn();
  both = signedIn.client;
  for (const environment of [c.environment.id, c.otherEnvironment.id])
    await addMember(t.db, environment, { user: signedIn.user, credentials: ['environment-admin'] });
  const block = async (environment: number, body: Record<string, unknown>) => {
    const created = await both.post('/api/mypageblock', { environment, ...body });
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { id: number }).id;
  };
  ids.ours = await block(c.environment.id, {
    type: 'sum_fields',
    defDossier: c.client.id,
    settings: { sum_field: c.fields.amount.dataField.id },
  });
  ids.theirs = await block(c.otherEnvironment.id, { type: 'active_users' });
  const theirEntity = await buildDefDossier(t.db, c.otherEnvironment.id, { name: 'Theirs' });
  ids.theirLink = (await buildLink(t.db, theirEntity, theirEntity, { name: 'self' })).id;
  ids.theirDossier = await insertDossier(t, theirEntity, 'theirs', {});
  ids.client = await insertDossier(t, c.client, 'Ours', { [String(c.fields.amount.dataField.id)]: 7 });
});
afterAll(() => t.close());

const item = (settings: Record<string, unknown>) =>
  both.post('/api/displayitem', {
    environment: c.environment.id,
    defDossier: c.client.id,
    displayPosition: c.main.id,
    view: 'show',
    translations: [{ culture: 'en_GB', name: 'Block' }],
    settings,
  });

describe('block display items', () => {
  it('name a block and a link of their own environment (and entity), else the save says which', async () => {
    const foreignBlock = await item({ block: ids.theirs });
    expect(foreignBlock.statusCode).toBe(400);
    expect(foreignBlock.json()).toEqual({ errors: { block: DISPLAY_ITEM_MESSAGES.unknownBlock } });
    expect((await item({ block: 2_147_483_647 })).json()).toEqual({
      errors: { block: DISPLAY_ITEM_MESSAGES.unknownBlock },
    });
    const foreignLink = await item({ block: ids.ours, block_link: ids.theirLink });
    expect(foreignLink.statusCode).toBe(400);
    expect(foreignLink.json()).toEqual({ errors: { block_link: DISPLAY_ITEM_MESSAGES.unknownBlockLink } });

    const saved = await item({ block: ids.ours, block_link: c.links.projects.id });
    expect(saved.statusCode, saved.body).toBe(201);
    const id = (saved.json() as { id: number }).id;
    // nor can an edit point it at the other environment's block
    const patched = await both.patch(`/api/displayitem/${id}`, { settings: { block: ids.theirs } });
    expect(patched.statusCode).toBe(400);
    expect(patched.json()).toEqual({ errors: { block: DISPLAY_ITEM_MESSAGES.unknownBlock } });
  });

  it('the data call about a dossier refuses a block of another environment than the dossier', async () => {
    // each block about a dossier of its own environment, and without a dossier, answers
    expect((await both.get(`/api/mypageblock/${ids.ours}/data?dossier=${ids.client}`)).json()).toEqual({
      sum: 7,
      count: 1,
    });
    expect((await both.get(`/api/mypageblock/${ids.theirs}/data`)).statusCode).toBe(200);
    // crossed: 404 as for an unknown block, with or without a link
    expectNotFound(
      await both.get(`/api/mypageblock/${ids.theirs}/data?dossier=${ids.client}`),
      'their block about our dossier',
    );
    expectNotFound(
      await both.get(`/api/mypageblock/${ids.ours}/data?dossier=${ids.theirDossier}`),
      'our block about their dossier',
    );
    expectNotFound(
      await both.get(
        `/api/mypageblock/${ids.ours}/data?dossier=${ids.theirDossier}&linkId=${c.links.projects.id}`,
      ),
      'our block about their dossier through our link',
    );
    // a member of one environment only never reaches the other's block
    expectRefused(
      await c.admin.get(`/api/mypageblock/${ids.theirs}/data?dossier=${ids.client}`),
      'a block of an environment the admin is not in',
    );
  });
});
