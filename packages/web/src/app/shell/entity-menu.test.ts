import type { DefDossierSummary } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import type { StoredEnvironment } from '../../features/environments/environment-store';
import { buildEntityMenu, entityHref, translationFor } from './entity-menu';

const entity = (over: Partial<DefDossierSummary>): DefDossierSummary => ({
  id: 1,
  uuid: 'u',
  type: 'main',
  rank: 0,
  visibility_roles: [],
  query_settings: {},
  dossierqueries: [],
  translations: [
    { culture: 'en_GB', name: 'Cases', name_singular: 'Case', name_plural: 'Cases' },
    { culture: 'nl_NL', name: 'Zaken', name_singular: 'Zaak', name_plural: 'Zaken' },
  ],
  ...over,
});

const environment = (defdossiers: DefDossierSummary[], user_roles?: number[]) =>
  ({ defdossiers, user_roles }) as unknown as StoredEnvironment;

describe('entity menu', () => {
  it('names entities in the current culture with fallback to the first', () => {
    expect(translationFor(entity({}), 'nl_NL')).toBe('Zaken');
    expect(translationFor(entity({}), 'de_DE')).toBe('Cases');
  });

  it('adds the default query to the link', () => {
    expect(entityHref(entity({ id: 4, query_settings: { default_query: 9 } }))).toBe(
      '/defdossier/4?dossierQuery=9',
    );
    expect(entityHref(entity({ id: 4 }))).toBe('/defdossier/4');
  });

  it('groups and sorts by rank, hidden only for admins', () => {
    const env = environment([
      entity({ id: 1, rank: 2 }),
      entity({ id: 2, rank: 1 }),
      entity({ id: 3, type: 'other' }),
      entity({ id: 4, type: 'hidden' }),
    ]);
    const admin = buildEntityMenu(env, true, 'en_GB');
    expect(admin.main.map((e) => e.id)).toEqual([2, 1]);
    expect(admin.other.map((e) => e.id)).toEqual([3]);
    expect(admin.hidden.map((e) => e.id)).toEqual([4]);
    expect(buildEntityMenu(env, false, 'en_GB').hidden).toEqual([]);
  });

  it('filters non-admins by visibility roles when the user roles are known', () => {
    const entities = [entity({ id: 1, visibility_roles: [5] }), entity({ id: 2, visibility_roles: [6] })];
    expect(buildEntityMenu(environment(entities, [5]), false, null).main.map((e) => e.id)).toEqual([1]);
    expect(buildEntityMenu(environment(entities), false, null).main.map((e) => e.id)).toEqual([1, 2]);
    expect(buildEntityMenu(environment(entities, [7]), true, null).main.map((e) => e.id)).toEqual([1, 2]);
  });
});
