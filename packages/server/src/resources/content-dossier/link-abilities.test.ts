import type { DossierDetail } from '@dossierbase/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { dossierSetup, insertDossier } from './fixture';

// The link picker offers 'New' (a dossier of the child entity created inline) only with 'create' on
// the child entity (spec doc 3 section 6, "inline add needs create permission"): dossier answers carry
// the reader's abilities on the child entity of every link item.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test("link items carry the reader's abilities on the child entity", async () => {
  const s = await dossierSetup(t);
  await s.grant(s.client, ['show', 'create', 'edit']);
  await s.grant(s.project, ['show']);
  const id = await insertDossier(t, s.client, 'Jansen');
  const linkAbilities = async (client: typeof s.member) => {
    const detail = (await client.get(`/api/contentdossier/${id}`)).json() as DossierDetail;
    const link = detail.items.find((item) => item.id === s.links.projectsItem.id)?.def_dossier_link;
    return link?.child_abilities;
  };

  expect(await linkAbilities(s.member)).toMatchObject({ canShow: true, canCreate: false });
  await s.grant(s.project, ['show', 'create']);
  expect(await linkAbilities(s.member)).toMatchObject({ canShow: true, canCreate: true });
  expect(await linkAbilities(s.admin)).toMatchObject({ canShow: true, canCreate: true });

  // the items a member reads for the create form carry them too
  const items = (await s.member.get(`/api/displayitem?defDossier=${s.client.id}&view=show/edit`)).json()
    .results as DossierDetail['items'];
  expect(
    items.find((item) => item.id === s.links.leadItem.id)?.def_dossier_link?.child_abilities?.canCreate,
  ).toBe(true);

  // and the items an admin reads (the configuration list, which the create form reads for admins)
  const configured = (await s.admin.get(`/api/displayitem?defDossier=${s.client.id}`)).json()
    .results as DossierDetail['items'];
  expect(
    configured.find((item) => item.id === s.links.projectsItem.id)?.def_dossier_link?.child_abilities
      ?.canCreate,
  ).toBe(true);
});
