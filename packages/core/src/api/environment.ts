import { z } from 'zod';
import { environmentAbilitiesSchema } from './abilities';
import { listQuerySchema, MAX_INT4, pagedSchema, REQUIRED_MESSAGE, resultsSchema } from './common';
import { ID_MESSAGE, idParamSchema, idSchema } from './ids';
import { avatarSchema, SEEN_PRESENCES } from './profile';

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
  lastLanguage: 'An environment keeps at least one language. Add another language before removing this one.',
  unknownLanguage: 'This is not a language of this environment.',
} as const;

export const localeSchema = z.object({ id: z.number(), code: z.string(), name: z.string() });
export type Locale = z.infer<typeof localeSchema>;
export const localesAnswerSchema = resultsSchema(localeSchema);
export const localePageSchema = pagedSchema(localeSchema);

export const userRefSchema = z.object({ id: z.number(), username: z.string() });
export type UserRef = z.infer<typeof userRefSchema>;

export type DefDossierType = 'main' | 'hidden' | 'other';

export const defDossierTranslationAnswerSchema = z.object({
  culture: z.string(),
  name: z.string(),
  name_singular: z.string(),
  name_plural: z.string(),
});
export type DefDossierTranslation = z.infer<typeof defDossierTranslationAnswerSchema>;

/** The definition-dossier fields the shell needs (spec doc 1 section 3). */
export const defDossierSummarySchema = z.object({
  id: z.number(),
  uuid: z.string(),
  type: z.enum(['main', 'hidden', 'other']),
  rank: z.number(),
  visibility_roles: z.array(z.number()),
  query_settings: z.object({
    default_query: z.number().nullable().optional(),
    menu_queries: z.array(z.object({ queryUuid: z.string(), name: z.string(), rank: z.number() })).optional(),
  }),
  dossierqueries: z.array(z.object({ id: z.number(), uuid: z.string() })),
  translations: z.array(defDossierTranslationAnswerSchema),
});
export type DefDossierSummary = z.infer<typeof defDossierSummarySchema>;

export const roleSchema = z.object({ id: z.number(), name: z.string() });
export type Role = z.infer<typeof roleSchema>;

/** A role on /api/role: the role and what its editor needs. */
export const roleDetailSchema = roleSchema.extend({
  environment_id: z.number(),
  translations: z.array(z.object({ culture: z.string(), name: z.string() })),
});
export type RoleDetail = z.infer<typeof roleDetailSchema>;
export const rolePageSchema = pagedSchema(roleDetailSchema);

/** An entity as a role's uses name it: the web shows it in the reader's language. */
const roleUseEntitySchema = z.object({
  id: z.number(),
  translations: z.array(defDossierTranslationAnswerSchema),
});

/**
 * GET /api/role/{id}/usage: every place that names the role. A role is deleted only when none does,
 * or together with its removal from all of them (DELETE /api/role/{id}?detach=true).
 */
export const roleUsageSchema = z.object({
  /** the members holding it: the first ROLE_USAGE_MEMBERS by username, and how many there are */
  members: z.array(userRefSchema),
  member_count: z.number(),
  /** entities on which it has permissions */
  permissions: z.array(roleUseEntitySchema),
  /** entities listed in menus only to the roles they name, this one among them */
  visibility: z.array(roleUseEntitySchema),
  /** data fields whose visibility names it */
  data_fields: z.array(z.object({ id: z.number(), name: z.string(), def_dossier: roleUseEntitySchema })),
  /** display items whose visibility names it */
  display_items: z.array(
    z.object({ id: z.number(), name: z.string(), view: z.string(), def_dossier: roleUseEntitySchema }),
  ),
  /** list options hidden for it */
  list_options: z.array(
    z.object({ id: z.number(), text: z.string(), def_field: z.object({ id: z.number(), name: z.string() }) }),
  ),
});
export type RoleUsage = z.infer<typeof roleUsageSchema>;
export const ROLE_USAGE_MEMBERS = 20;

export const environmentSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  active: z.boolean(),
  logo: z.string().nullable(),
  apply_template: z.number().nullable(),
  locales: z.array(localeSchema),
  roles: z.array(roleSchema),
  env_modules: z.array(z.string()),
  defdossiers: z.array(defDossierSummarySchema),
  /** The signed-in user's credentials in this environment. */
  credentials: z.array(z.string()),
  /** What the signed-in user may do in this environment. */
  abilities: environmentAbilitiesSchema,
  settings: z.record(z.string(), z.unknown()),
  created_by: userRefSchema.nullable(),
  created_at: z.string(),
  modified_at: z.string(),
  modified_by: userRefSchema.nullable(),
});
export type Environment = z.infer<typeof environmentSchema>;
export const environmentPageSchema = pagedSchema(environmentSchema);

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

/** The modules an environment can switch on (the integrations read them; spec docs 1 to 3). */
export const ENVIRONMENT_MODULES = [
  'reports',
  'brp',
  'secureshare',
  'hourregistration',
  'events',
  'kedocx',
  'jwwmo',
] as const;
export type EnvironmentModule = (typeof ENVIRONMENT_MODULES)[number];

export const ENVIRONMENT_SETTINGS_MESSAGES = {
  color: 'Enter a colour as #rrggbb',
  superAdminOnly: 'Only a super admin can change this',
  unknownEntity: 'Unknown entity',
} as const;

/** PATCH /api/environment/:id: what its admins change (`active` by super admins only). */
export const environmentPatchSchema = z.object({
  name: environmentCreateSchema.shape.name.optional(),
  description: environmentCreateSchema.shape.description.optional(),
  /** data: URL of a PNG or JPEG image; null removes the logo */
  image: z.string().max(3_000_000).nullable().optional(),
  active: z.boolean().optional(),
  /** how members reach help: an e-mail address, phone number or web address, as text */
  help_contact: z.string().trim().max(200, 'At most 200 characters').optional(),
  /** the shell's accent colour; null for the product's own */
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, ENVIRONMENT_SETTINGS_MESSAGES.color)
    .nullable()
    .optional(),
});
export type EnvironmentPatch = z.output<typeof environmentPatchSchema>;

/** PUT /api/environment/:id/module/:name: switched on or off, with the module's settings. */
export const environmentModuleSchema = z.object({
  enabled: z.boolean(),
  /** the entities the module works on (secure share lists them) */
  entities: z.array(idSchema).max(500).optional(),
});
export type EnvironmentModuleInput = z.output<typeof environmentModuleSchema>;

export const environmentLocaleCreateSchema = z.object({
  environment: idSchema,
  code: z.string({ error: REQUIRED_MESSAGE }).min(1, REQUIRED_MESSAGE).max(10),
});

/** DELETE /api/environment/:id/locale/:code: one of the environment's locales (nl_NL ...). */
export const environmentLocaleParamsSchema = z.object({
  id: idParamSchema,
  code: z.string().min(1).max(10),
});

export const templateSummarySchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  created_at: z.string(),
  translations: z.array(
    z.object({
      culture: z.string(),
      name: z.string(),
      description: z.string(),
      thumbnail_path: z.string().nullable(),
    }),
  ),
});
export type TemplateSummary = z.infer<typeof templateSummarySchema>;
export const templatePageSchema = pagedSchema(templateSummarySchema);

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

export const environmentMemberSchema = z.object({
  id: z.number(),
  username: z.string(),
  profile: z.object({
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    preposition: z.string().nullable(),
  }),
  environment_user_active: z.boolean(),
  presence: z.enum(SEEN_PRESENCES),
  avatar: avatarSchema,
});
export type EnvironmentMember = z.infer<typeof environmentMemberSchema>;
export const environmentMemberPageSchema = pagedSchema(environmentMemberSchema);

/** GET /api/environment/{id}/contact: whom a member asks for help (/contact). */
export const environmentContactSchema = z.object({
  /** the platform's help contact (HELP_CONTACT) */
  help_contact: z.string(),
  /** the environment's own help contact, its setting `help_contact`; null when it has none */
  environment_contact: z.string().nullable(),
  /** the environment's active admins, with their e-mail addresses */
  admins: z.array(environmentMemberSchema.extend({ email: z.string().nullable() })),
});
export type EnvironmentContact = z.infer<typeof environmentContactSchema>;
