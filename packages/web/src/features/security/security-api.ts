import type {
  RecoveryCodes,
  SecurityOverview,
  SecurityPolicy,
  TwoFactorSetup,
  UserSessionInfo,
} from '@dossierbase/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

// The calls of /security: two-factor sign-in, the open sessions and the environment's policy.

export const securityKeys = {
  overview: ['user', 'security'] as const,
  sessions: ['user', 'session'] as const,
  policy: (environment: number) => ['environment', environment, 'security_policy'] as const,
};

export function useSecurityOverview() {
  return useQuery({
    queryKey: securityKeys.overview,
    queryFn: ({ signal }) => api.get<SecurityOverview>('/user/security', undefined, signal),
    // recovery codes are spent and sessions opened elsewhere: read again on every visit
    staleTime: 0,
  });
}

export function useSessions() {
  return useQuery({
    queryKey: securityKeys.sessions,
    queryFn: ({ signal }) => api.get<{ results: UserSessionInfo[] }>('/user/session', undefined, signal),
    staleTime: 0,
  });
}

export function useSecurityPolicy(environment: number, enabled: boolean) {
  return useQuery({
    queryKey: securityKeys.policy(environment),
    queryFn: ({ signal }) =>
      api.get<SecurityPolicy>(`/environment/${environment}/security_policy`, undefined, signal),
    enabled,
  });
}

export const startTwoFactor = () => api.post<TwoFactorSetup>('/user/two_factor/setup');
export const confirmTwoFactor = (code: string) =>
  api.post<RecoveryCodes>('/user/two_factor/confirm', { code });
export const renewRecoveryCodes = (password: string) =>
  api.post<RecoveryCodes>('/user/two_factor/recovery_codes', { password });
export const disableTwoFactor = (password: string) =>
  api.post<SecurityOverview>('/user/two_factor/disable', { password });
export const endOtherSessions = () => api.post<{ ended: number }>('/user/session/end_others');
export const saveSecurityPolicy = (environment: number, policy: SecurityPolicy) =>
  api.put<SecurityPolicy>(`/environment/${environment}/security_policy`, policy);
