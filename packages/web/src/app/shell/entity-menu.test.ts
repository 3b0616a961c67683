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

const environment = (defdossiers: DefDossierSummary[]) => ({ defdossiers }) as unknown as StoredEnvironment;

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

  it('groups and sorts by rank what the server sent', () => {
    const env = environment([
      entity({ id: 1, rank: 2 }),
      entity({ id: 2, rank: 1 }),
      entity({ id: 3, type: 'other' }),
      entity({ id: 4, type: 'hidden' }),
    ]);
    const menu = buildEntityMenu(env, 'en_GB');
    expect(menu.main.map((e) => e.id)).toEqual([2, 1]);
    expect(menu.other.map((e) => e.id)).toEqual([3]);
    expect(menu.hidden.map((e) => e.id)).toEqual([4]);
    expect(buildEntityMenu(environment([entity({ id: 5 })]), 'en_GB').hidden).toEqual([]);
  });

  it('shows every entity the server sent: it filters by permissions and visibility roles', () => {
    const entities = [entity({ id: 1, visibility_roles: [5] }), entity({ id: 2, visibility_roles: [6] })];
    expect(buildEntityMenu(environment(entities), null).main.map((e) => e.id)).toEqual([1, 2]);
  });
});
