import { type EnvironmentMember, personName } from '@dossierbase/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { api } from '../../api/client';
import type { UserOption } from '../../fields/types';
import { useEnvironment } from '../environments/environment-store';

// Members of the current environment for user fields: names to show stored user ids, and a
// server-side search for the user picker (25 per search, as the spec's user list call). The first
// 500 members by name come at once; the names of stored ids beyond them are asked for by id.

const NAMES_LIMIT = 500;
const SEARCH_LIMIT = 25;
const IDS_LIMIT = 200; // the user list call's most ids at once

export const memberName = (member: Pick<EnvironmentMember, 'username' | 'profile'>) =>
  personName({ username: member.username, ...member.profile });

const toOption = (member: EnvironmentMember): UserOption => ({ id: member.id, name: memberName(member) });

async function members(environment: number, query: Record<string, string | number>, signal?: AbortSignal) {
  const answer = await api.get<{ results: EnvironmentMember[] }>('/user', { environment, ...query }, signal);
  return answer.results.map(toOption);
}

/**
 * Names of the environment's members (the first 500 by name, and `wanted`: ids a page shows) and
 * the picker's search.
 */
export function useEnvironmentUsers(wanted: readonly number[] = []) {
  const environment = useEnvironment()?.id ?? null;
  const names = useQuery({
    queryKey: ['user', 'members', environment],
    queryFn: ({ signal }) => members(environment as number, { limit: NAMES_LIMIT }, signal),
    enabled: environment !== null,
    staleTime: 5 * 60_000,
  });
  const named = new Set((names.data ?? []).map((u) => u.id));
  const missing = names.data
    ? [...new Set(wanted)]
        .filter((id) => !named.has(id))
        .sort((a, b) => a - b)
        .slice(0, IDS_LIMIT)
    : [];
  const others = useQuery({
    queryKey: ['user', 'members', environment, 'ids', missing.join(',')],
    queryFn: ({ signal }) =>
      members(environment as number, { ids: missing.join(','), limit: missing.length }, signal),
    enabled: environment !== null && missing.length > 0,
    staleTime: 5 * 60_000,
  });
  const users = useMemo(() => [...(names.data ?? []), ...(others.data ?? [])], [names.data, others.data]);
  const loadUsers = useCallback(
    (search: string) =>
      environment === null
        ? Promise.resolve([])
        : members(environment, { limit: SEARCH_LIMIT, ...(search.trim() ? { name: search.trim() } : {}) }),
    [environment],
  );
  return { users, loadUsers };
}
