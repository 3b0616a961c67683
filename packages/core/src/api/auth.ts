import { z } from 'zod';
import { userAbilitiesSchema } from './abilities';
import { REQUIRED_MESSAGE } from './common';

export const GLOBAL_ROLES = ['ROLE_USER', 'ROLE_ADMIN', 'ROLE_CONTRACT_ADMIN', 'ROLE_AZURE_USER'] as const;
export type GlobalRole = (typeof GLOBAL_ROLES)[number];

export const OTP_HEADER = 'X-OTP-Token';

export const LOGIN_MESSAGES = {
  incorrect: 'Incorrect username or password',
  otpRequired: 'Verification code required',
  otpIncorrect: 'Incorrect verification code.',
  keyIncorrect: 'login_incorrect',
  tooMany: 'Too many sign-in attempts. Please wait 15 minutes and try again.',
} as const;

/** `error` of the /login address a failed single sign-on (Google, Azure) is sent back to. */
export const SSO_ERRORS = ['sso_failed', 'sso_unknown_user'] as const;
export type SsoError = (typeof SSO_ERRORS)[number];

/** 403 of every call but the change itself while a handed-out password must be replaced (key login). */
export const PASSWORD_UPDATE_REQUIRED = 'password_update_required';

/** 429 of forgot_password when one address asked for too many reset links. */
export const RESET_MESSAGES = {
  tooMany: 'Too many requests for a reset link. Please try again later.',
} as const;

/** Token data the browser keeps locally (spec doc 1 section 3). Times are unix seconds. */
export const tokenDataSchema = z.object({
  username: z.string(),
  user_id: z.number(),
  roles: z.array(z.string()),
  re_pwd: z.boolean(),
  iat: z.number(),
  exp: z.number(),
  /** what the user may do across environments (server policy; absent from tokens stored before) */
  abilities: userAbilitiesSchema.optional(),
  /** an environment of the user requires two-factor sign-in, which they have not turned on */
  two_factor_required: z.boolean().optional(),
});
export type TokenData = z.infer<typeof tokenDataSchema>;

/** GET /api/token/ttl: seconds left of the access token. */
export const tokenTtlSchema = z.object({ ttl: z.number() });

/** 401 answer of login_check; `otp_required` is the json flag that asks for the code screen. */
export interface LoginErrorBody {
  message: string;
  otp_required?: boolean;
}

export const loginSchema = z.object({
  username: z.string({ error: REQUIRED_MESSAGE }).trim().min(1, REQUIRED_MESSAGE).max(180),
  password: z.string({ error: REQUIRED_MESSAGE }).min(1, REQUIRED_MESSAGE).max(4096),
});

export const otpCodeSchema = z
  .string()
  .min(1, REQUIRED_MESSAGE)
  .max(6, 'At most 6 digits')
  .regex(/^\d+$/, 'Digits only');

export const keyLoginSchema = z.object({
  username: z.string({ error: REQUIRED_MESSAGE }).min(1, REQUIRED_MESSAGE).max(180),
  key: z.string({ error: REQUIRED_MESSAGE }).min(1, REQUIRED_MESSAGE).max(200),
});

/** A required e-mail address (forgot password, the profile). */
export const emailAddressSchema = z
  .string({ error: REQUIRED_MESSAGE })
  .trim()
  .min(1, REQUIRED_MESSAGE)
  .max(254, 'Invalid e-mail address')
  .pipe(z.email('Invalid e-mail address'));

export const forgotPasswordSchema = z.object({
  username: z.string({ error: REQUIRED_MESSAGE }).trim().min(1, REQUIRED_MESSAGE).max(180),
  email: emailAddressSchema,
});

export const PASSWORD_MIN_LENGTH = 8;
export const passwordSchema = z
  .string({ error: REQUIRED_MESSAGE })
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(4096);

export const resetPasswordSchema = z.object({
  token: z.string().min(1, REQUIRED_MESSAGE),
  password: passwordSchema,
});

/** The messages of a password change (spec doc 2 section 5, Passwords). */
export const PASSWORD_MESSAGES = {
  incorrect: 'Incorrect password',
  mismatch: 'Passwords do not match',
} as const;

export const changePasswordSchema = z.object({
  /** Not needed while the forced-update flag is set (key login, re_pwd). */
  current_password: z.string().optional(),
  password: passwordSchema,
});

/** GET /api/user/reset_password/:token: the link is valid, for this user. */
export const resetLinkSchema = z.object({ valid: z.boolean(), username: z.string() });

/** POST /api/user/:id/login_key: a one-time sign-in link. */
export const loginKeyAnswerSchema = z.object({ key: z.string(), url: z.string() });

/** Public client configuration: GET /api/config. */
export const clientConfigSchema = z.object({
  release: z.string(),
  help_contact: z.string(),
  idle_limit_seconds: z.number(),
  idle_prompt_seconds: z.number(),
  sso: z.object({ google: z.boolean(), azure: z.boolean() }),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

export const subscriptionSchema = z.object({
  id: z.number(),
  max_environments: z.number(),
  /** people who may work in the holder's environments; null: no limit */
  max_users: z.number().nullable(),
  starts_at: z.string(),
  expires_at: z.string(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const activeSubscriptionSchema = z.object({
  subscription: subscriptionSchema.nullable(),
  expired: z.boolean(),
});
export type ActiveSubscriptionBody = z.infer<typeof activeSubscriptionSchema>;
