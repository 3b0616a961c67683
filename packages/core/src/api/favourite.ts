import { z } from 'zod';
import { listQuerySchema, pagedSchema } from './common';
import { idParamSchema } from './ids';

// The favourites side panel (spec doc 1 "Favourites side panel", doc 2 section 7): the signed-in user's
// favourite dossiers of one environment, those they may still see, newest favourite first.

export const FAVOURITES_PAGE_SIZE = 10;
/** The panel's search waits this long after the last key (spec doc 1 section 9). */
export const FAVOURITES_SEARCH_DEBOUNCE_MS = 200;
/** The panel cuts summaries here. */
export const FAVOURITE_SUMMARY_LENGTH = 50;

export const favouritesQuerySchema = listQuerySchema.extend({
  environment: idParamSchema,
  limit: z.coerce.number().int().min(1).max(100).default(FAVOURITES_PAGE_SIZE),
});
export type FavouritesQuery = z.output<typeof favouritesQuerySchema>;

export const favouriteSchema = z.object({
  id: z.number(),
  content_dossier_id: z.number(),
  def_dossier_id: z.number(),
  /** the summary as this reader may see it */
  summary: z.string(),
  /** when the dossier was marked */
  created_at: z.string(),
});
export type Favourite = z.infer<typeof favouriteSchema>;
export const favouritePageSchema = pagedSchema(favouriteSchema);
export type FavouritePage = z.infer<typeof favouritePageSchema>;
