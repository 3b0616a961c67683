import type {
  ChangeableGlobalRole,
  Member,
  MemberDetail,
  MemberInvite,
  MemberInviteAnswer,
  MemberPatch,
  Paged,
} from '@dossierbase/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, apiRequest } from '../../../api/client';
import { adminKeys, useEnvironmentId } from '../admin-api';

// The environment's members, as its admins manage them (server: resources/member). Under the admin
// query keys, so that every admin save refetches them.

export interface MemberListParams {
  search: string;
  active: '' | '0' | '1';
  page: number;
  limit: number;
}

const membersOf = (environment: number) => `/environment/${environment}/member`;

export function useMembers(params: MemberListParams) {
  const environment = useEnvironmentId();
  const query = { ...params, search: params.search || undefined, active: params.active || undefined };
  return useQuery({
    queryKey: adminKeys.list('member', { environment, ...query }),
    queryFn: ({ signal }) => api.get<Paged<Member>>(membersOf(environment), query, signal),
    enabled: environment > 0,
    placeholderData: keepPreviousData,
  });
}

export const memberKey = (environment: number, userId: number) =>
  adminKeys.list('member', { environment, userId });

export function useMember(userId: number) {
  const environment = useEnvironmentId();
  return useQuery({
    queryKey: memberKey(environment, userId),
    queryFn: ({ signal }) => api.get<MemberDetail>(`${membersOf(environment)}/${userId}`, undefined, signal),
    enabled: environment > 0 && userId > 0,
  });
}

export const inviteMember = (environment: number, invite: MemberInvite) =>
  api.post<MemberInviteAnswer>(membersOf(environment), invite);

export const changeMember = (environment: number, userId: number, patch: MemberPatch) =>
  api.patch<MemberDetail>(`${membersOf(environment)}/${userId}`, patch);

export const removeMember = (environment: number, userId: number) =>
  api.delete<unknown>(`${membersOf(environment)}/${userId}`);

export const resendInvitation = (environment: number, userId: number) =>
  api.post<unknown>(`${membersOf(environment)}/${userId}/invitation`);

export const setGlobalRoles = (userId: number, roles: ChangeableGlobalRole[]) =>
  apiRequest<{ id: number; global_roles: string[] }>(`/user/${userId}/roles`, {
    method: 'PUT',
    body: { roles },
  });
