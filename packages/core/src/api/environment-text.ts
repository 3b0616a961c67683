import { z } from 'zod';
import { REQUIRED_MESSAGE, resultsSchema } from './common';
import { idParamSchema } from './ids';

// An environment's own wording of an interface text: the text of one key of the catalogues, in one
// language (en, nl ...) or one of the environment's locales (nl_NL ...), applied over the catalogue.

export const ENVIRONMENT_TEXT_MAX_LENGTH = 2000;

export const ENVIRONMENT_TEXT_MESSAGES = {
  /** followed by the key */
  unknownKey: 'Unknown interface text',
  unknownLocale: 'Not a language of this environment',
  markup: 'Plain text only: no HTML',
  tooLong: `At most ${ENVIRONMENT_TEXT_MAX_LENGTH} characters`,
} as const;

export const environmentTextSchema = z.object({ locale: z.string(), key: z.string(), value: z.string() });
export type EnvironmentText = z.infer<typeof environmentTextSchema>;
export const environmentTextsAnswerSchema = resultsSchema(environmentTextSchema);

/** The texts of a locale: those of its language (nl) and its own (nl_NL), which come last and win. */
export const environmentTextsQuerySchema = z.object({ locale: z.string().min(1).max(10) });

/** One text: the environment, the locale and the key (a catalogue's dotted key) in the path. */
export const environmentTextParamsSchema = z.object({
  id: idParamSchema,
  locale: z.string().min(1).max(10),
  key: z.string().min(1).max(200),
});

export const environmentTextPutSchema = z.object({
  value: z
    .string({ error: REQUIRED_MESSAGE })
    .trim()
    .min(1, REQUIRED_MESSAGE)
    .max(ENVIRONMENT_TEXT_MAX_LENGTH, ENVIRONMENT_TEXT_MESSAGES.tooLong)
    // shown as text, never as markup: a tag is refused rather than shown as it was typed
    .refine((value) => !/<\/?[a-z!?]/i.test(value), ENVIRONMENT_TEXT_MESSAGES.markup),
});
