import { z } from 'zod';
import type { EnvironmentAbilities } from './abilities';
import { listQuerySchema, MAX_INT4, REQUIRED_MESSAGE } from './common';
import { ID_MESSAGE, idParamSchema, idSchema } from './ids';

export const ENVIRONMENT_CREDENTIALS = [
  'environment-admin',
  'export',
  'quick_search',
  'brp',
  'secureshare',
  'kedo.file.delete',
] as const;
export type EnvironmentCredential = (typeof ENVIRONMENT_CREDENTIALS)[number];

export const ENVIRONMENT_PAGE_SIZE = 12;
export const ENVIRONMENT_MESSAGES = {
  limit: 'You cannot create any more environments in your subscription.',
  inactive: 'Environment is inactive and cannot be opened.',
  languageRequired: 'Select at least 1 language',
  imageType: 'The image must be a PNG or JPEG file',
} as const;

export interface Locale {
  id: number;
  code: string;
  name: string;
}

export interface UserRef {
  id: number;
  username: string;
}

export type DefDossierType = 'main' | 'hidden' | 'other';

export interface DefDossierTranslation {
  culture: string;
  name: string;
  name_singular: string;
  name_plural: string;
}

/** The definition-dossier fields the shell needs (spec doc 1 section 3). */
export interface DefDossierSummary {
  id: number;
  uuid: string;
  type: DefDossierType;
  rank: number;
  visibility_roles: number[];
  query_settings: {
    default_query?: number | null;
    menu_queries?: { queryUuid: string; name: string; rank: number }[];
  };
  dossierqueries: { id: number; uuid: string }[];
  translations: DefDossierTranslation[];
}

export interface Role {
  id: number;
  name: string;
}

export interface Environment {
  id: number;
  name: string;
  description: string;
  active: boolean;
  logo: string | null;
  apply_template: number | null;
  locales: Locale[];
  roles: Role[];
  env_modules: string[];
  defdossiers: DefDossierSummary[];
  /** The signed-in user's credentials in this environment. */
  credentials: string[];
  /** What the signed-in user may do in this environment. */
  abilities: EnvironmentAbilities;
  settings: Record<string, unknown>;
  created_by: UserRef | null;
  created_at: string;
  modified_at: string;
  modified_by: UserRef | null;
}

export const environmentListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(ENVIRONMENT_PAGE_SIZE),
  page: z.coerce.number().int().min(0).max(MAX_INT4).default(0),
  name: z.string().max(200).optional(),
});

export const MAX_LOGO_BYTES = 2 * 1024 * 1024;

export const environmentCreateSchema = z.object({
  name: z
    .string({ error: REQUIRED_MESSAGE })
    .trim()
    .min(1, REQUIRED_MESSAGE)
    .max(100, 'At most 100 characters'),
  description: z
    .string({ error: REQUIRED_MESSAGE })
    .trim()
    .min(1, REQUIRED_MESSAGE)
    .max(2000, 'At most 2000 characters'),
  /** data: URL of a PNG or JPEG image. */
  image: z.string().nullable().optional(),
  template: idSchema.nullable().optional(),
});

export const environmentLocaleCreateSchema = z.object({
  environment: idSchema,
  code: z.string({ error: REQUIRED_MESSAGE }).min(1, REQUIRED_MESSAGE).max(10),
});

export interface TemplateSummary {
  id: number;
  name: string;
  description: string;
  created_at: string;
  translations: { culture: string; name: string; description: string; thumbnail_path: string | null }[];
}

/** GET /api/user: the members of an environment, for user pickers and user names. */
export const userListQuerySchema = listQuerySchema.extend({
  environment: idParamSchema,
  name: z.string().trim().max(100).optional(),
  active: z.enum(['0', '1']).optional(),
  /** comma-separated user ids, to show names of stored values */
  ids: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10}){0,199}$/, 'Enter user ids separated by commas')
    .refine((ids) => ids.split(',').every((id) => idParamSchema.safeParse(id).success), ID_MESSAGE)
    .optional(),
});

export interface EnvironmentMember {
  id: number;
  username: string;
  profile: { first_name: string | null; last_name: string | null; preposition: string | null };
  environment_user_active: boolean;
}
