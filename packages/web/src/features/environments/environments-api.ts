import {
  ENVIRONMENT_PAGE_SIZE,
  type Environment,
  type EnvironmentText,
  type Locale,
  type Paged,
  type TemplateSummary,
} from '@dossierbase/core';
import { api } from '../../api/client';

export function listEnvironments(params: { page: number; name: string }, signal?: AbortSignal) {
  return api.get<Paged<Environment>>(
    '/environment',
    { limit: ENVIRONMENT_PAGE_SIZE, page: params.page, name: params.name },
    signal,
  );
}

export function getEnvironment(id: number) {
  return api.get<Environment>(`/environment/${id}`);
}

/** The environment's own wording of interface texts for a locale: its language's, then its own. */
export function getEnvironmentTexts(id: number, locale: string, signal?: AbortSignal) {
  return api.get<{ results: EnvironmentText[] }>(`/environment/${id}/text`, { locale }, signal);
}

export function createEnvironment(body: {
  name: string;
  description: string;
  image: string | null;
  template: number | null;
}) {
  return api.post<Environment>('/environment', body);
}

export function addEnvironmentLocale(environment: number, code: string) {
  return api.post<unknown>('/environment-locale', { environment, code });
}

export function listLocales(signal?: AbortSignal) {
  return api.get<{ results: Locale[] }>('/locale', undefined, signal);
}

export function listTemplates(params: { limit: number; page: number; name: string }, signal?: AbortSignal) {
  return api.get<Paged<TemplateSummary>>('/admin/template', params, signal);
}
