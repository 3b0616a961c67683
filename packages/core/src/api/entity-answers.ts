import { z } from 'zod';
import { entityAbilitiesSchema } from './abilities';
import { pagedSchema, resultsSchema } from './common';
import {
  ARCHIVE_CASCADE_RULES,
  CASCADE_RULES,
  DEF_DOSSIER_TYPES,
  type DefDossier,
  type DefDossierLink,
  type DefField,
  DISPLAY_POSITION_TYPES,
  type DisplayCustomView,
  type DisplayPosition,
  type EntityAnswer,
  type EntityPermission,
  type EntityPermissionsAnswer,
  LINK_TYPES,
  type ListOption,
  PERMISSION_ACTIONS,
} from './entity';

// Answer schemas of the entity configuration routes (schema.response). Each `satisfies` the interface
// the web reads, so a schema and its interface cannot drift apart.

const settings = z.record(z.string(), z.unknown());

export const listOptionSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  def_field_id: z.number(),
  color: z.string().nullable(),
  rank: z.number(),
  default: z.boolean(),
  translations: z.array(
    z.object({
      culture: z.string(),
      text: z.string(),
      settings: z
        .object({ informationtext: z.string().optional(), pretext: z.string().optional() })
        .optional(),
    }),
  ),
  settings: z.object({ roles: z.array(z.number()).optional() }).catchall(z.unknown()),
}) satisfies z.ZodType<ListOption>;
export const listOptionPageSchema = pagedSchema(listOptionSchema);
export const listOptionsAnswerSchema = resultsSchema(listOptionSchema);

export const defFieldSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  environment_id: z.number(),
  name: z.string(),
  type: z.string(),
  settings,
  rank: z.number(),
  def_field_lists: z.array(listOptionSchema),
  usage: z.array(
    z.object({
      def_dossier_id: z.number(),
      def_dossier_name: z.string(),
      def_dossier_def_field_id: z.number(),
      def_dossier_def_field_name: z.string(),
      placed: z.boolean(),
    }),
  ),
}) satisfies z.ZodType<DefField>;
export const defFieldPageSchema = pagedSchema(defFieldSchema);

export const defDossierSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  environment_id: z.number(),
  type: z.enum(DEF_DOSSIER_TYPES),
  rank: z.number(),
  visibility_roles: z.array(z.number()),
  archivable: z.boolean(),
  translations: z.array(
    z.object({ culture: z.string(), name: z.string(), name_singular: z.string(), name_plural: z.string() }),
  ),
  settings,
}) satisfies z.ZodType<DefDossier>;
export const defDossierPageSchema = pagedSchema(defDossierSchema);
export const defDossiersAnswerSchema = resultsSchema(defDossierSchema);

export const entityAnswerSchema = defDossierSchema.extend({
  abilities: entityAbilitiesSchema,
}) satisfies z.ZodType<EntityAnswer>;

export const entityPermissionsAnswerSchema = z.object({
  def_dossier_id: z.number(),
  actions: z.array(z.enum(PERMISSION_ACTIONS)),
  abilities: entityAbilitiesSchema,
}) satisfies z.ZodType<EntityPermissionsAnswer>;

export const displayPositionSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  def_dossier_id: z.number(),
  type: z.enum(DISPLAY_POSITION_TYPES),
  hide: z.boolean(),
  rank: z.number(),
  view_name: z.string().nullable(),
  translations: z.array(
    z.object({ culture: z.string(), name: z.string(), name_plural: z.string().optional() }),
  ),
}) satisfies z.ZodType<DisplayPosition>;
export const displayPositionPageSchema = pagedSchema(displayPositionSchema);

export const displayCustomViewSchema = z.object({
  id: z.number(),
  view_name: z.string(),
  def_dossier_id: z.number(),
}) satisfies z.ZodType<DisplayCustomView>;
export const displayCustomViewPageSchema = pagedSchema(displayCustomViewSchema);

export const entityPermissionSchema = z.object({
  id: z.number(),
  def_dossier_id: z.number(),
  role_id: z.number(),
  actions: z.array(z.enum(PERMISSION_ACTIONS)),
}) satisfies z.ZodType<EntityPermission>;
export const entityPermissionsSchema = resultsSchema(entityPermissionSchema);

export const defDossierLinkSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  environment_id: z.number(),
  def_dossier_id: z.number(),
  child_def_dossier_id: z.number(),
  back_link_id: z.number().nullable(),
  name: z.string(),
  type_of_link: z.enum(LINK_TYPES),
  cascade_rule: z.enum(CASCADE_RULES),
  archive_cascade_rule: z.enum(ARCHIVE_CASCADE_RULES),
  obligatory: z.boolean(),
  locked: z.boolean(),
  disable_backlink: z.boolean(),
  settings,
  child_abilities: entityAbilitiesSchema.optional(),
}) satisfies z.ZodType<DefDossierLink>;
export const defDossierLinkPageSchema = pagedSchema(defDossierLinkSchema);
