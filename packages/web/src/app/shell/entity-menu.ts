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

export function isEntityVisible(
  entity: DefDossierSummary,
  environment: StoredEnvironment,
  admin: boolean,
): boolean {
  if (admin) return true;
  if (entity.type === 'hidden') return false;
  const roles = entity.visibility_roles ?? [];
  // Without the user's role ids in this environment the server's filtering is all we have.
  if (roles.length === 0 || !environment.user_roles) return true;
  return roles.some((role) => environment.user_roles?.includes(role));
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

export function buildEntityMenu(environment: StoredEnvironment, admin: boolean, locale: string | null) {
  const visible = [...(environment.defdossiers ?? [])]
    .filter((entity) => isEntityVisible(entity, environment, admin))
    .sort((a, b) => a.rank - b.rank || a.id - b.id);
  const of = (type: DefDossierSummary['type']) =>
    visible.filter((entity) => entity.type === type).map((entity) => toMenuEntity(entity, locale));
  return { main: of('main'), other: of('other'), hidden: admin ? of('hidden') : [] };
}
