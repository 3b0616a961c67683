import { z } from 'zod';
import { MAX_INT4, REQUIRED_MESSAGE } from './common';

// The one rule for ids. Most ids are `integer` columns (int4): a larger number would overflow
// there, so it is refused here with a 400 instead. Dossier ids (content_dossier and what refers to
// it) are `bigint` and go up to the largest integer JavaScript holds exactly. Ids in paths and query
// strings are decimal digits only: '0x10', '1e3', ' 12', '+5', '-1' and '1.0' are not ids.

export const ID_MESSAGE = 'Enter a valid id';

const idError = (issue: { input?: unknown }) => (issue.input === undefined ? REQUIRED_MESSAGE : ID_MESSAGE);

/** An id in a JSON body: a whole number from 1 to 2147483647. */
export const idSchema = z
  .number({ error: idError })
  .int({ error: ID_MESSAGE })
  .min(1, ID_MESSAGE)
  .max(MAX_INT4, ID_MESSAGE);

/** A dossier id in a JSON body (bigint column): a whole number from 1 to 2^53 - 1. */
export const dossierIdSchema = z
  .number({ error: idError })
  .int({ error: ID_MESSAGE })
  .min(1, ID_MESSAGE)
  .max(Number.MAX_SAFE_INTEGER, ID_MESSAGE);

/** An id in a path or query string: 1 to 10 decimal digits, at most 2147483647. */
export const idParamSchema = z
  .string({ error: idError })
  .regex(/^\d{1,10}$/, ID_MESSAGE)
  .transform(Number)
  .pipe(idSchema);

/** A dossier id in a path or query string: 1 to 16 decimal digits, at most 2^53 - 1. */
export const dossierIdParamSchema = z
  .string({ error: idError })
  .regex(/^\d{1,16}$/, ID_MESSAGE)
  .transform(Number)
  .pipe(dossierIdSchema);
