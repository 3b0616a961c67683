export const queryKeys = {
  config: ['config'] as const,
  profile: ['user', 'profile'] as const,
  subscription: ['subscription', 'active'] as const,
  environments: (params: { page: number; name: string }) => ['environment', 'list', params] as const,
  environmentList: ['environment', 'list'] as const,
  environmentTexts: (id: number | null, locale: string | null) =>
    ['environment', id, 'text', locale] as const,
  locales: ['locale'] as const,
  templates: (params: { page: number; name: string; limit: number }) =>
    ['admin', 'template', 'list', params] as const,
  resetToken: (token: string) => ['user', 'reset_password', token] as const,
};
