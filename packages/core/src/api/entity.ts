import { z } from 'zod';
import { FIELD_TYPE_NAMES } from '../fields/types';
import type { EntityAbilities } from './abilities';
import { MAX_INT4, REQUIRED_MESSAGE } from './common';
import { idSchema } from './ids';

// Entity configuration (spec document 3): request schemas (camelCase references, as the spec's
// client sends them) and wire shapes (snake_case). Server and web both use these.

export const ENTITY_MESSAGES = {
  chooseFieldOrLink: 'Choose a data field or a link field',
  placedFieldDelete: 'You cannot delete a placed field',
  placedFieldType: 'The type of a placed field cannot be changed',
  listFieldFixed: 'The base field of a list field cannot be changed once saved',
  linkEntityFixed: 'The entity of a link cannot be changed once saved',
  locked: 'This item is locked and cannot be changed',
  unknownFieldType: 'Unknown field type',
  locationFixed: 'The location of a display item cannot be changed',
  notBelowZero: 'Must be 0 or more',
  nothingToChange: 'Give at least one field to change',
} as const;

export const PERMISSION_ACTIONS = [
  'show',
  'create',
  'edit',
  'delete',
  'archive',
  'export',
  'export_csv',
  'export_pdf',
  'export_word',
  'export_html',
  'merge',
  'massupdate',
  'dossierlog',
  'secureshare',
] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

export const DEF_DOSSIER_TYPES = ['main', 'hidden', 'other'] as const;
export const DISPLAY_POSITION_TYPES = ['main_content', 'tab', 'meta', 'footer', 'hide'] as const;
export const DISPLAY_VIEWS = [
  'show/edit',
  'edit',
  'show',
  'list',
  'search',
  'advanced-search',
  'summary',
] as const;
export const PERMISSION_TYPES = ['EXCLUDE_SELECTED_ROLES', 'INCLUDE_SELECTED_ROLES'] as const;
export const LINK_TYPES = ['select', 'embeddedList'] as const;
export const CASCADE_RULES = ['maintain', 'delete', 'constraint'] as const;
export const ARCHIVE_CASCADE_RULES = ['', 'archive'] as const;
export const DOSSIER_DATA_KEYS = [
  'summary',
  'dossier_id',
  'created_by',
  'modified_by',
  'created_at',
  'modified_at',
] as const;
/** Information text and pre-text may hold only these tags and attributes (spec doc 3 section 5). */
export const INFORMATION_TEXT_TAGS = [
  'b',
  'img',
  'br',
  'span',
  'table',
  'ol',
  'tbody',
  'li',
  'i',
  'strong',
  'tr',
  'td',
  'thead',
  'div',
  'p',
];
export const INFORMATION_TEXT_ATTRIBUTES = ['style', 'border', 'src', 'width', 'heigth'];

/** Data field names: whitespace and non-word runs become underscores. */
export const sanitiseFieldName = (name: string) => name.trim().replace(/[\s\W]+/g, '_');
/** Link names: letters, digits and underscores only, repeated underscores collapsed. */
export const sanitiseLinkName = (name: string) =>
  name
    .trim()
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/_{2,}/g, '_');

const required = () => z.string({ error: REQUIRED_MESSAGE }).trim().min(1, REQUIRED_MESSAGE).max(255);
const id = () => idSchema;
const culture = z.string().min(2).max(10);
const settings = z.record(z.string(), z.unknown()).default({});
const notNegative = () =>
  z
    .number({ error: REQUIRED_MESSAGE })
    .int()
    .min(0, ENTITY_MESSAGES.notBelowZero)
    .max(MAX_INT4, `At most ${MAX_INT4}`);

type PatchShape<T extends z.ZodRawShape> = {
  [K in keyof T]: z.ZodOptional<T[K] extends z.ZodDefault<infer Inner> ? Inner : T[K]>;
};
/**
 * A PATCH body: every field optional and no defaults filled in, so a field the client leaves out
 * stays as it is (`.partial()` alone would still apply `.default(...)` and reset it). A body that
 * names no field at all is refused: it asks for nothing.
 */
export function patchSchema<T extends z.ZodRawShape>(schema: z.ZodObject<T>): z.ZodObject<PatchShape<T>> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => [
      key,
      (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType)).optional(),
    ]),
  );
  return z.object(shape).refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: ENTITY_MESSAGES.nothingToChange,
  }) as unknown as z.ZodObject<PatchShape<T>>;
}

// ---------- base fields (/api/deffield) and list options (/api/deffieldlist)

export const defFieldCreateSchema = z.object({
  environment: id(),
  uuid: z.uuid().optional(),
  name: required(),
  type: z.enum(FIELD_TYPE_NAMES, { error: ENTITY_MESSAGES.unknownFieldType }),
  settings,
  rank: notNegative().optional(),
});
export const defFieldPatchSchema = patchSchema(defFieldCreateSchema.omit({ environment: true, uuid: true }));

export interface DefFieldUsage {
  def_dossier_id: number;
  def_dossier_name: string;
  def_dossier_def_field_id: number;
  def_dossier_def_field_name: string;
  placed: boolean;
}

export interface ListOption {
  id: number;
  uuid: string;
  def_field_id: number;
  color: string | null;
  rank: number;
  default: boolean;
  translations: {
    culture: string;
    text: string;
    settings?: { informationtext?: string; pretext?: string };
  }[];
  settings: { roles?: number[] } & Record<string, unknown>;
}

export interface DefField {
  id: number;
  uuid: string;
  environment_id: number;
  name: string;
  type: string;
  settings: Record<string, unknown>;
  rank: number;
  def_field_lists: ListOption[];
  /** Where the field is used as a data field; `placed` when a display item shows it. */
  usage: DefFieldUsage[];
}

export const listOptionTranslationSchema = z.object({
  culture,
  text: required(),
  settings: z
    .object({
      informationtext: z.string().max(20_000).optional(),
      pretext: z.string().max(20_000).optional(),
    })
    .optional(),
});

export const defFieldListCreateSchema = z.object({
  environment: id(),
  uuid: z.uuid().optional(),
  defField: id(),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{3,8}$/, 'Use a colour like #ff8800')
    .nullable()
    .optional(),
  rank: notNegative().default(0),
  default: z.boolean().default(false),
  translations: z.array(listOptionTranslationSchema).min(1, REQUIRED_MESSAGE),
  settings: z
    .object({ roles: z.array(idSchema).max(1000).default([]) })
    .catchall(z.unknown())
    .default({ roles: [] }),
});
export const defFieldListPatchSchema = patchSchema(
  defFieldListCreateSchema.omit({ environment: true, uuid: true }),
);
/** PATCH /api/deffieldlist: new ranks for several options of one field. */
export const defFieldListRankSchema = z.object({
  ranks: z.array(z.object({ id: id(), rank: notNegative() })).min(1),
});

// ---------- entities (/api/defdossier)

export const defDossierTranslationSchema = z.object({
  culture,
  name: required(),
  name_singular: required(),
  name_plural: required(),
});

export const conditionSchemaRef = z.record(z.string(), z.unknown());

export const defDossierCreateSchema = z.object({
  environment: id(),
  uuid: z.uuid().optional(),
  type: z.enum(DEF_DOSSIER_TYPES).default('main'),
  rank: notNegative().default(0),
  visibility_roles: z.array(idSchema).max(1000).default([]),
  archivable: z.boolean().default(false),
  translations: z.array(defDossierTranslationSchema).min(1, REQUIRED_MESSAGE),
  /** add_continue, layout_sidebar, detail_layout, hiddenfields, conditions, query_settings, address_lookup_settings, calendar/gantt/kanban/timeline settings */
  settings,
});
export const defDossierPatchSchema = patchSchema(
  defDossierCreateSchema.omit({ environment: true, uuid: true }),
);

export interface DefDossier {
  id: number;
  uuid: string;
  environment_id: number;
  type: 'main' | 'hidden' | 'other';
  rank: number;
  visibility_roles: number[];
  archivable: boolean;
  translations: { culture: string; name: string; name_singular: string; name_plural: string }[];
  settings: Record<string, unknown>;
}

/** GET /api/defdossier/{id}: the entity (reduced for members) with the signed-in user's abilities on it. */
export interface EntityAnswer extends DefDossier {
  abilities: EntityAbilities;
}

/** GET /api/defdossier/{id}/permissions: the signed-in user's actions on the entity, and what they allow. */
export interface EntityPermissionsAnswer {
  def_dossier_id: number;
  actions: PermissionAction[];
  abilities: EntityAbilities;
}

// ---------- data fields (/api/defdossierdeffield)

export const defDossierDefFieldCreateSchema = z.object({
  environment: id(),
  uuid: z.uuid().optional(),
  defDossier: id(),
  defField: id(),
  name: required(),
  obligatory: z.boolean().default(false),
  locked: z.boolean().default(false),
  /** who sees the field, in every view; a display item may narrow it for its view */
  roles: z.array(idSchema).max(1000).default([]),
  permissions_type: z.enum(PERMISSION_TYPES).default('EXCLUDE_SELECTED_ROLES'),
  settings,
});
export const defDossierDefFieldUpdateSchema = patchSchema(
  defDossierDefFieldCreateSchema.omit({ environment: true, uuid: true, defDossier: true }),
);

export interface DefDossierDefField {
  id: number;
  uuid: string;
  environment_id: number;
  def_dossier_id: number;
  name: string;
  obligatory: boolean;
  locked: boolean;
  /** who sees the field, in every view (INCLUDE: only these roles; EXCLUDE: all but these) */
  roles: number[];
  permissions_type: (typeof PERMISSION_TYPES)[number];
  settings: Record<string, unknown>;
  def_field: {
    id: number;
    uuid: string;
    name: string;
    type: string;
    settings: Record<string, unknown>;
    /** list and tree options the user may see (on the items of dossier reads) */
    def_field_lists?: ListOption[];
  };
}

// ---------- links (/api/defdossierlink)

export const defDossierLinkCreateSchema = z.object({
  environment: id(),
  uuid: z.uuid().optional(),
  defDossier: id(),
  childDefDossier: id(),
  name: required(),
  typeOfLink: z.enum(LINK_TYPES, { error: REQUIRED_MESSAGE }),
  cascadeRule: z.enum(CASCADE_RULES).default('maintain'),
  archiveCascadeRule: z.enum(ARCHIVE_CASCADE_RULES).default(''),
  obligatory: z.boolean().default(false),
  locked: z.boolean().default(false),
  disable_backlink: z.boolean().default(false),
  settings,
});
export const defDossierLinkPatchSchema = patchSchema(
  defDossierLinkCreateSchema.omit({ environment: true, uuid: true, defDossier: true }),
);
export const defDossierLinkBacklinkSchema = z.object({
  environment: id(),
  uuid: z.uuid(),
  backlinkUuid: z.uuid(),
  defDossier: id(),
  childDefDossier: id(),
});

export interface DefDossierLink {
  id: number;
  uuid: string;
  environment_id: number;
  def_dossier_id: number;
  child_def_dossier_id: number;
  back_link_id: number | null;
  name: string;
  type_of_link: 'select' | 'embeddedList';
  cascade_rule: 'maintain' | 'delete' | 'constraint';
  archive_cascade_rule: '' | 'archive';
  obligatory: boolean;
  locked: boolean;
  disable_backlink: boolean;
  settings: Record<string, unknown>;
  /** on the items of dossier answers: the signed-in user's abilities on the child entity */
  child_abilities?: EntityAbilities;
}

// ---------- display positions, items and custom views

export const displayPositionCreateSchema = z.object({
  environment: id(),
  uuid: z.uuid().optional(),
  defDossier: id(),
  type: z.enum(DISPLAY_POSITION_TYPES, { error: REQUIRED_MESSAGE }),
  hide: z.boolean().default(false),
  rank: notNegative().default(0),
  view_name: z.string().max(100).nullable().optional(),
  translations: z
    .array(z.object({ culture, name: required(), name_plural: z.string().max(255).optional() }))
    .default([]),
});
export const displayPositionPatchSchema = patchSchema(
  displayPositionCreateSchema.omit({ environment: true, uuid: true, defDossier: true }),
);

export interface DisplayPosition {
  id: number;
  uuid: string;
  def_dossier_id: number;
  type: (typeof DISPLAY_POSITION_TYPES)[number];
  hide: boolean;
  rank: number;
  view_name: string | null;
  translations: { culture: string; name: string; name_plural?: string }[];
}

export const displayItemTranslationSchema = z.object({
  culture,
  name: z.string().max(255).default(''),
  settings: z
    .object({
      informationtext: z.string().max(20_000).optional(),
      pretext: z.string().max(20_000).optional(),
    })
    .optional(),
});

export const displayItemCreateSchema = z.object({
  environment: id(),
  uuid: z.uuid().optional(),
  defDossier: id(),
  displayPosition: id().nullable().optional(),
  defDossierDefField: id().nullable().optional(),
  defDossierLink: id().nullable().optional(),
  /** One of DISPLAY_VIEWS or a custom view name of the entity. */
  view: required(),
  col: notNegative().default(1),
  rank: notNegative().default(1),
  colspan: notNegative().default(12),
  rowspan: notNegative().default(0),
  roles: z.array(idSchema).max(1000).default([]),
  permissions_type: z.enum(PERMISSION_TYPES).default('EXCLUDE_SELECTED_ROLES'),
  defaultPermissionType: z.string().optional(),
  translations: z.array(displayItemTranslationSchema).default([]),
  /** show_info_direct, condition_query, block, block_link, dossier_data, and type-specific settings */
  settings,
});
export const displayItemPatchSchema = patchSchema(
  displayItemCreateSchema.omit({ environment: true, uuid: true, defDossier: true }),
);

export interface DisplayItem {
  id: number;
  uuid: string;
  def_dossier_id: number;
  display_position_id: number | null;
  def_dossier_def_field: DefDossierDefField | null;
  def_dossier_link: DefDossierLink | null;
  view: string;
  col: number;
  rank: number;
  colspan: number;
  rowspan: number;
  roles: { role: { id: number } }[];
  permissions_type: (typeof PERMISSION_TYPES)[number];
  translations: {
    culture: string;
    name: string;
    settings?: { informationtext?: string; pretext?: string };
  }[];
  settings: Record<string, unknown>;
}

export const displayCustomViewCreateSchema = z.object({
  environment: id(),
  defDossier: id(),
  viewName: required().regex(/^[\w -]+$/, 'Use letters, digits, spaces, - and _'),
});
export const displayCustomViewPatchSchema = displayCustomViewCreateSchema.pick({ viewName: true });

export interface DisplayCustomView {
  id: number;
  view_name: string;
  def_dossier_id: number;
}

// ---------- roles (/api/role) and permissions (/api/permission)

export const ROLE_MESSAGES = {
  nameTaken: 'A role with this name exists',
  inUse: 'This role is still in use',
} as const;
export const PERMISSION_MESSAGES = { unknownEntity: 'Unknown entity', unknownRole: 'Unknown role' } as const;

export const roleCreateSchema = z.object({
  environment: id(),
  name: required(),
  translations: z.array(z.object({ culture, name: required() })).default([]),
});
export const rolePatchSchema = patchSchema(roleCreateSchema.omit({ environment: true }));

export const permissionPutSchema = z.object({
  environment: id(),
  defDossier: id(),
  role: id(),
  actions: z.array(z.enum(PERMISSION_ACTIONS)),
});

export interface EntityPermission {
  id: number;
  def_dossier_id: number;
  role_id: number;
  actions: PermissionAction[];
}
