export const queryKeys = {
  config: ['config'] as const,
  profile: ['user', 'profile'] as const,
  /** every answer of GET /api/user: names, presence and avatars of members */
  members: ['user', 'members'] as const,
  colleagues: (params: { environment: number; page: number; name: string }) =>
    ['user', 'members', 'colleagues', params] as const,
  colleague: (environment: number, id: number) => ['user', 'members', 'colleague', environment, id] as const,
  contact: (environment: number) => ['environment', environment, 'contact'] as const,
  subscription: ['subscription', 'active'] as const,
  environments: (params: { page: number; name: string }) => ['environment', 'list', params] as const,
  environmentList: ['environment', 'list'] as const,
  environmentTexts: (id: number | null, locale: string | null) =>
    ['environment', id, 'text', locale] as const,
  locales: ['locale'] as const,
  /** a language's catalogue as written, loaded in the browser (i18n/index.ts) */
  catalogue: (language: string) => ['catalogue', language] as const,
  templates: (params: { page: number; name: string; limit: number }) =>
    ['admin', 'template', 'list', params] as const,
  resetToken: (token: string) => ['user', 'reset_password', token] as const,
};
