import { z } from 'zod';
import { blockSettingsSchema } from './block-chart-settings';
import { listQuerySchema, pagerSchema, REQUIRED_MESSAGE } from './common';
import { idParamSchema, idSchema } from './ids';

// Dashboard blocks (/api/mypageblock, spec document 1 sections 3, 5 and 7): what a block is, which
// entity and saved query it reads, and its layout on the dashboard grid.

export const BLOCK_TYPES = [
  'dashboard',
  'list_option_percentage_conditions',
  'count_list_options',
  'count_link_options',
  'sum_fields',
  'online_users',
  'active_users',
  'new_dossier_statistics',
  'date_statistics',
  'block_container',
  'geomap',
  'funnel',
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

/** Types that read no entity (spec document 1 section 5, "Block"). */
export const BLOCKS_WITHOUT_ENTITY: readonly BlockType[] = [
  'online_users',
  'funnel',
  'active_users',
  'new_dossier_statistics',
  'block_container',
];

/** Settings each type requires, by type (spec: "count_list_field, count_link_field and period are required where the type uses them"). */
const REQUIRED_SETTINGS: Partial<Record<BlockType, string[]>> = {
  count_list_options: ['count_list_field'],
  count_link_options: ['count_link_field'],
  date_statistics: ['period'],
  sum_fields: ['sum_field'],
  funnel: ['list_field'],
};

export const DATE_FORMATS = ['year_month', 'quarter', 'year'] as const;
/** How often a block's data is read again (spec document 1 section 4), in minutes; thirty by default. */
export const REFRESH_RATES = { minute: 1, five_minute: 5, fifteen_minute: 15, thirty_minute: 30 } as const;
export type RefreshRate = keyof typeof REFRESH_RATES;
/** The layouts of a dossier list block and the templates each offers (spec document 1 section 3). */
export const LIST_BLOCK_LAYOUTS = ['table', 'cards', 'calendar'] as const;
export const CARD_TEMPLATES = [
  'cardDefault',
  'cardCarousel',
  'cardPerson',
  'cardListVariant',
  'cardTimeline',
] as const;
/** The option slots of each template: which list column fills which part of a card. */
export const TEMPLATE_SLOTS: Record<string, readonly string[]> = {
  cardDefault: [],
  cardListVariant: [],
  cardPerson: ['title', 'picture', 'description'],
  cardCarousel: ['title', 'picture', 'subtitle', 'description'],
  cardTimeline: ['date', 'title', 'picture', 'subtitle', 'description'],
  calendar: ['name', 'start', 'end', 'location'],
};
export const CONTAINER_LAYOUTS = ['horizontal', 'vertical', 'carousel', 'accordion'] as const;
export const STATISTIC_PERIODS = ['week', 'month', 'year'] as const;

const translation = z.object({
  culture: z.string().trim().min(2).max(10),
  title: z.string().trim().max(255).default(''),
});

const blockFields = {
  type: z.enum(BLOCK_TYPES, { error: REQUIRED_MESSAGE }),
  defDossier: idSchema.nullable().optional(),
  dossierQuery: idSchema.nullable().optional(),
  parent: idSchema.nullable().optional(),
  col: z
    .number({ error: 'Enter a number from 1 to 12' })
    .int()
    .min(1, 'Enter a number from 1 to 12')
    .max(12, 'Enter a number from 1 to 12'),
  rank: z.number().int().min(0).max(100_000),
  dashboard: z.boolean(),
  roles: z.array(idSchema).max(200),
  translations: z.array(translation).max(20),
  settings: blockSettingsSchema,
};
/** A new block's defaults; a patch has none (what it leaves out stays as it is). */
const blockDefaults = {
  ...blockFields,
  col: blockFields.col.default(12),
  rank: blockFields.rank.default(0),
  dashboard: blockFields.dashboard.default(true),
  roles: blockFields.roles.default([]),
  translations: blockFields.translations.default([]),
  settings: blockFields.settings.default({}),
};

/** The rules of spec document 1 section 5 "Block" that span fields. */
function checkBlock(
  block: { type?: BlockType; defDossier?: number | null; settings?: Record<string, unknown> },
  ctx: z.RefinementCtx,
) {
  if (!block.type) return;
  if (!BLOCKS_WITHOUT_ENTITY.includes(block.type) && !block.defDossier)
    ctx.addIssue({ code: 'custom', path: ['defDossier'], message: REQUIRED_MESSAGE });
  for (const key of REQUIRED_SETTINGS[block.type] ?? []) {
    const value = block.settings?.[key];
    if (value === undefined || value === null || value === '')
      ctx.addIssue({ code: 'custom', path: [key === 'period' ? 'period' : key], message: REQUIRED_MESSAGE });
  }
}

export const blockCreateSchema = z
  .object({ environment: idSchema, uuid: z.uuid().optional(), ...blockDefaults })
  .superRefine(checkBlock);
export const blockPatchSchema = z.object(blockFields).partial();

export const blockSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  environment: z.object({ id: z.number() }),
  type: z.enum(BLOCK_TYPES),
  def_dossier: z.object({ id: z.number() }).nullable(),
  dossier_query: z.object({ id: z.number() }).nullable(),
  parent: z.object({ id: z.number() }).nullable(),
  col: z.number(),
  rank: z.number(),
  dashboard: z.boolean(),
  roles: z.array(z.number()),
  translations: z.array(translation),
  settings: z.record(z.string(), z.unknown()),
  children: z.array(z.number()),
});
export type Block = z.infer<typeof blockSchema>;

export const blockPositionSchema = z.object({
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  uuid: z.string(),
});
export type BlockPosition = z.infer<typeof blockPositionSchema>;

export const blockListQuerySchema = listQuerySchema.extend({
  environment: idParamSchema,
  type: z.enum(BLOCK_TYPES).optional(),
  dashboard: z.enum(['true', 'false', '1', '0']).optional(),
  default: z.enum(['true', 'false', '1', '0']).optional(),
});
export const blockPageSchema = z.object({
  results: z.array(blockSchema),
  pager: pagerSchema,
  positions: z.array(blockPositionSchema),
});

/** PATCH /mypage/{environmentId}/position: the grid of the user's view, or the default view (admins). */
export const positionSaveSchema = z.object({
  blocks: z
    .array(
      z.object({
        block: z.union([idSchema, z.uuid()]),
        xPos: z.number().int().min(0).max(1000),
        yPos: z.number().int().min(0).max(100_000),
        blockWidth: z.number().int().max(1000),
        blockHeight: z.number().int().max(1000),
      }),
    )
    .max(500),
  default: z.boolean().optional(),
});
export const positionQuerySchema = z.object({ default: z.enum(['true', 'false', '1', '0']).optional() });
export const positionAnswerSchema = z.object({ positions: z.array(blockPositionSchema) });

export const blockDataQuerySchema = z.object({
  dossier: z
    .string()
    .regex(/^\d{1,16}$/)
    .optional(),
  linkId: idParamSchema.optional(),
  date_format: z.enum(DATE_FORMATS).optional(),
  /** a dossier list block's tab: one of the saved queries in its tab_queries */
  query: idParamSchema.optional(),
});

export const statisticsBodySchema = z.object({ environment: idSchema });

/** A block's data: its shape depends on the block's type (server resources/dashboard/data.ts). */
export const blockDataAnswerSchema = z.record(z.string(), z.unknown());

const weekdayCounts = z.array(z.object({ created_at: z.number(), cd_count: z.number() }));
export const newDossierStatisticsSchema = z.object({
  lastweek: weekdayCounts,
  twoweeks: weekdayCounts,
  threeweeks: weekdayCounts,
});
export const onlineUsersSchema = z.object({ online: z.number(), offline: z.number() });
export const activeUsersSchema = z.object({
  rows: z.array(z.object({ user_id: z.number(), username: z.string(), total_count: z.number() })),
});
