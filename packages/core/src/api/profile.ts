import { z } from 'zod';
import { emailAddressSchema } from './auth';
import { REQUIRED_MESSAGE } from './common';

// The signed-in user's own profile (/profile), and what colleagues see of a user: name, presence
// and avatar.

export const PRESENCES = ['online', 'away', 'busy', 'invisible'] as const;
export type Presence = (typeof PRESENCES)[number];

/** A user's presence as colleagues see it: invisible, or signed in nowhere, is offline. */
export const SEEN_PRESENCES = ['online', 'away', 'busy', 'offline'] as const;
export type SeenPresence = (typeof SEEN_PRESENCES)[number];

/** The interface languages a user picks on their profile, as locale codes. */
export const PROFILE_LOCALES = ['en_GB', 'nl_NL', 'de_DE', 'fr_FR', 'es_ES', 'ru_RU'] as const;
export type ProfileLocale = (typeof PROFILE_LOCALES)[number];

/** The avatar's two sizes in pixels (square), stored as WebP: /images/user/{id}_{version}_{size}.webp */
export const AVATAR_SIZES = [64, 200] as const;
/** The largest picture accepted for an avatar. */
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
/** The picture types an avatar is made from. */
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

export const PROFILE_MESSAGES = {
  nameLength: 'At most 100 characters',
  mobile: 'Enter a phone number of 8 to 15 digits, such as +31 6 12345678',
  locale: 'Choose one of the languages',
  emailTaken: 'Another account uses this e-mail address',
  avatarType: 'The picture must be a PNG, JPEG, WebP or GIF image',
  avatarSize: 'The picture may be at most 5 MB',
  avatarPixels: 'The picture may be at most 40 megapixels',
} as const;

/** Blank text is no value. */
const blankToNull = (value: string | null) => value || null;

const nameSchema = z.string().trim().max(100, PROFILE_MESSAGES.nameLength).nullable().transform(blankToNull);

/** A phone number as people write it: an optional +, then 8 to 15 digits with spaces, dashes or brackets. */
export const mobileSchema = z
  .string()
  .trim()
  .max(30, PROFILE_MESSAGES.mobile)
  .refine(
    (value) =>
      value === '' || (/^\+?[\d\s().-]+$/.test(value) && /^\d{8,15}$/.test(value.replace(/\D/g, ''))),
    PROFILE_MESSAGES.mobile,
  )
  .nullable()
  .transform(blankToNull);

export const avatarSchema = z
  .object({ small: z.string(), large: z.string() })
  .nullable()
  .meta({ description: 'the avatar at 64 and 200 pixels; null when the user has none' });
export type Avatar = z.infer<typeof avatarSchema>;

/** The avatar's addresses; `version` changes with every new picture, so that browsers may keep one long. */
export function avatarPaths(userId: number, version: string): NonNullable<Avatar> {
  const [small, large] = AVATAR_SIZES.map((size) => `/images/user/${userId}_${version}_${size}.webp`);
  return { small, large };
}

export const profileSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string().nullable(),
  first_name: z.string().nullable(),
  preposition: z.string().nullable(),
  last_name: z.string().nullable(),
  mobile: z.string().nullable(),
  roles: z.array(z.string()),
  locale: z.string().nullable(),
  re_pwd: z.boolean(),
  private_settings: z.object({ presence: z.enum(PRESENCES).optional() }),
  avatar: avatarSchema,
});
export type Profile = z.infer<typeof profileSchema>;

/** PATCH /api/user/profile: the fields sent change; blank names and mobile are cleared. */
export const profilePatchSchema = z.object({
  first_name: nameSchema.optional(),
  preposition: nameSchema.optional(),
  last_name: nameSchema.optional(),
  email: emailAddressSchema.optional(),
  mobile: mobileSchema.optional(),
  locale: z.enum(PROFILE_LOCALES, { error: PROFILE_MESSAGES.locale }).nullable().optional(),
  private_settings: z.object({ presence: z.enum(PRESENCES).optional() }).optional(),
});
export type ProfilePatch = z.input<typeof profilePatchSchema>;

/** The longest data URL of an avatar upload: the base64 of the largest picture and its head. */
export const MAX_AVATAR_DATA_URL = Math.ceil(MAX_AVATAR_BYTES / 3) * 4 + 100;

/** PUT /api/user/profile/avatar: the picture as a data URL. */
export const avatarUploadSchema = z.object({
  image: z
    .string({ error: REQUIRED_MESSAGE })
    .min(1, REQUIRED_MESSAGE)
    .max(MAX_AVATAR_DATA_URL, PROFILE_MESSAGES.avatarSize)
    .regex(/^data:image\/[\w.+-]+;base64,/, PROFILE_MESSAGES.avatarType),
});
