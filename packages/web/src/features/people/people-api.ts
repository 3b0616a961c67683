import type { EnvironmentContact, EnvironmentMember, Paged, Profile, ProfilePatch } from '@dossierbase/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

// The calls of the personal screens: the own profile and avatar, colleagues and the contact page.

export const COLLEAGUES_PAGE_SIZE = 24;

export function useProfile() {
  return useQuery({
    queryKey: queryKeys.profile,
    queryFn: ({ signal }) => api.get<Profile>('/user/profile', undefined, signal),
  });
}

export const saveProfile = (patch: ProfilePatch) => api.patch<Profile>('/user/profile', patch);
export const uploadAvatar = (image: string) => api.put<Profile>('/user/profile/avatar', { image });
export const removeAvatar = () => api.delete<Profile>('/user/profile/avatar');

/**
 * A change of the own profile: its answer is the profile from then on, and the member lists are read
 * again (they show the name, presence and avatar).
 */
export function useProfileChange<T>(change: (input: T) => Promise<Profile>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (profile) => {
      queryClient.setQueryData(queryKeys.profile, profile);
      void queryClient.invalidateQueries({ queryKey: queryKeys.members });
    },
  });
}

/** A page of the environment's active members, found by name on the server. */
export function useColleagues(environment: number, page: number, name: string) {
  return useQuery({
    queryKey: queryKeys.colleagues({ environment, page, name }),
    queryFn: ({ signal }) =>
      api.get<Paged<EnvironmentMember>>(
        '/user',
        { environment, page, limit: COLLEAGUES_PAGE_SIZE, active: 1, name: name || undefined },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

/** One member of the environment (null: no such member), read through the member list by id. */
export function useColleague(environment: number, id: number) {
  return useQuery({
    queryKey: queryKeys.colleague(environment, id),
    queryFn: async ({ signal }) => {
      const page = await api.get<Paged<EnvironmentMember>>(
        '/user',
        { environment, ids: id, limit: 1 },
        signal,
      );
      return page.results[0] ?? null;
    },
  });
}

export function useContact(environment: number) {
  return useQuery({
    queryKey: queryKeys.contact(environment),
    queryFn: ({ signal }) =>
      api.get<EnvironmentContact>(`/environment/${environment}/contact`, undefined, signal),
  });
}
