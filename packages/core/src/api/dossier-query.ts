import { z } from 'zod';
import { ARCHIVED_CHOICES, queryDocumentSchema } from '../query/document';
import { listQuerySchema, pagedSchema, REQUIRED_MESSAGE } from './common';
import { idParamSchema, idSchema } from './ids';

// Saved queries (/api/dossierquery, spec document 1 sections 3 and 7): a query document over one
// entity, named per language for search and for the dashboard.

export const queryTranslationSchema = z.object({
  culture: z.string().trim().min(2).max(10),
  search_name: z.string().trim().max(255).default(''),
  dashboard_name: z.string().trim().max(255).default(''),
});
export type QueryTranslation = z.infer<typeof queryTranslationSchema>;

const translations = z.array(queryTranslationSchema).max(20);

export const dossierQueryCreateSchema = z.object({
  environment: idSchema,
  defDossier: idSchema,
  data: queryDocumentSchema,
  translations: translations.default([]),
});

export const dossierQueryPatchSchema = z.object({
  data: queryDocumentSchema.optional(),
  translations: translations.optional(),
});

export const dossierQueryListQuerySchema = listQuerySchema.extend({
  environment: idParamSchema,
  defDossier: idParamSchema.optional(),
});

/** A query document not saved yet, counted for the editor. */
export const dossierQueryCountSchema = z.object({
  environment: idSchema,
  defDossier: idSchema,
  data: queryDocumentSchema,
});

const userRef = z.object({ id: z.number(), username: z.string() }).nullable();

export const dossierQuerySchema = z.object({
  id: z.number(),
  uuid: z.string(),
  environment: z.object({ id: z.number() }),
  def_dossier: z.object({ id: z.number() }),
  // as stored (queryDocumentSchema's output); the answer's schema only names its two keys
  data: z.object({ combinators: z.array(z.any()), include_archived: z.enum(ARCHIVED_CHOICES) }),
  translations: z.array(queryTranslationSchema),
  created_by: userRef,
  modified_by: userRef,
  created_at: z.string(),
  modified_at: z.string(),
});
export type DossierQuery = z.infer<typeof dossierQuerySchema>;

export const dossierQueryPageSchema = pagedSchema(dossierQuerySchema);
export const dossierQueryCountAnswerSchema = z.object({ items: z.number() });

/** An entity's settings.query_settings: its default query (id) and the queries its menu lists. */
export const querySettingsSchema = z.object({
  default_query: idSchema.nullable().optional(),
  menu_queries: z
    .array(
      z.object({
        queryUuid: z.uuid(),
        name: z.string().trim().min(1, REQUIRED_MESSAGE).max(255),
        rank: z.number().int().min(0).max(100_000).default(0),
      }),
    )
    .max(50)
    .default([]),
});
export type QuerySettings = z.infer<typeof querySettingsSchema>;
