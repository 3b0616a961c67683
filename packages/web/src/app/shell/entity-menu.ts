import type { DefDossierSummary } from '@dossierbase/core';
import type { StoredEnvironment } from '../../features/environments/environment-store';

export interface MenuEntity {
  id: number;
  name: string;
  href: string;
  queries: { id: number; name: string; href: string }[];
}

export function translationFor(entity: DefDossierSummary, locale: string | null): string {
  const translations = entity.translations ?? [];
  const language = locale?.slice(0, 2);
  const match =
    translations.find((tr) => tr.culture === locale) ??
    translations.find((tr) => tr.culture?.slice(0, 2) === language) ??
    translations[0];
  return match?.name || match?.name_plural || `#${entity.id}`;
}

export function entityHref(entity: DefDossierSummary, queryId?: number | null): string {
  const id = queryId ?? entity.query_settings?.default_query;
  return id ? `/defdossier/${entity.id}?dossierQuery=${id}` : `/defdossier/${entity.id}`;
}

function toMenuEntity(entity: DefDossierSummary, locale: string | null): MenuEntity {
  const queries = [...(entity.query_settings?.menu_queries ?? [])]
    .sort((a, b) => a.rank - b.rank)
    .flatMap((menuQuery) => {
      const query = entity.dossierqueries?.find((q) => q.uuid === menuQuery.queryUuid);
      return query ? [{ id: query.id, name: menuQuery.name, href: entityHref(entity, query.id) }] : [];
    });
  return { id: entity.id, name: translationFor(entity, locale), href: entityHref(entity), queries };
}

/**
 * The entities of the menus, grouped by type and sorted by rank. The server sends the entities the
 * user may see in menus (policy/entity.ts, entityInMenus): hidden ones reach admins only.
 */
export function buildEntityMenu(environment: StoredEnvironment, locale: string | null) {
  const entities = [...(environment.defdossiers ?? [])].sort((a, b) => a.rank - b.rank || a.id - b.id);
  const of = (type: DefDossierSummary['type']) =>
    entities.filter((entity) => entity.type === type).map((entity) => toMenuEntity(entity, locale));
  return { main: of('main'), other: of('other'), hidden: of('hidden') };
}
