import type { EnvironmentMember } from '@dossierbase/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../api/client';
import type { UserOption } from '../../fields/types';
import { useEnvironment } from '../environments/environment-store';

// Members of the current environment for user fields: names to show stored user ids, and a
// server-side search for the user picker (25 per search, as the spec's user list call).

const NAMES_LIMIT = 500;
const SEARCH_LIMIT = 25;

export function memberName(member: EnvironmentMember): string {
  const { first_name, preposition, last_name } = member.profile;
  const full = [first_name, preposition, last_name].filter(Boolean).join(' ');
  return full || member.username;
}

const toOption = (member: EnvironmentMember): UserOption => ({ id: member.id, name: memberName(member) });

async function members(environment: number, query: Record<string, string | number>, signal?: AbortSignal) {
  const answer = await api.get<{ results: EnvironmentMember[] }>('/user', { environment, ...query }, signal);
  return answer.results.map(toOption);
}

/** Names of the environment's members (the first 500 by name) and the picker's search. */
export function useEnvironmentUsers() {
  const environment = useEnvironment()?.id ?? null;
  const names = useQuery({
    queryKey: ['user', 'members', environment],
    queryFn: ({ signal }) => members(environment as number, { limit: NAMES_LIMIT }, signal),
    enabled: environment !== null,
    staleTime: 5 * 60_000,
  });
  const loadUsers = useCallback(
    (search: string) =>
      environment === null
        ? Promise.resolve([])
        : members(environment, { limit: SEARCH_LIMIT, ...(search.trim() ? { name: search.trim() } : {}) }),
    [environment],
  );
  return { users: names.data ?? [], loadUsers };
}
