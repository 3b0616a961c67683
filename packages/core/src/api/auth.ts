import { z } from 'zod';
import type { UserAbilities } from './abilities';
import { REQUIRED_MESSAGE } from './common';

export const GLOBAL_ROLES = ['ROLE_USER', 'ROLE_ADMIN', 'ROLE_CONTRACT_ADMIN', 'ROLE_AZURE_USER'] as const;
export type GlobalRole = (typeof GLOBAL_ROLES)[number];

export const PRESENCES = ['online', 'away', 'busy', 'invisible'] as const;
export type Presence = (typeof PRESENCES)[number];

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
export interface TokenData {
  username: string;
  user_id: number;
  roles: string[];
  re_pwd: boolean;
  iat: number;
  exp: number;
  /** what the user may do across environments (server policy; absent from tokens stored before) */
  abilities?: UserAbilities;
}

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

export const forgotPasswordSchema = z.object({
  username: z.string({ error: REQUIRED_MESSAGE }).trim().min(1, REQUIRED_MESSAGE).max(180),
  email: z
    .string({ error: REQUIRED_MESSAGE })
    .trim()
    .min(1, REQUIRED_MESSAGE)
    .pipe(z.email('Invalid e-mail address')),
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

export const changePasswordSchema = z.object({
  /** Not needed while the forced-update flag is set (key login, re_pwd). */
  current_password: z.string().optional(),
  password: passwordSchema,
});

export interface Profile {
  id: number;
  username: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  roles: string[];
  locale: string | null;
  re_pwd: boolean;
  private_settings: { presence?: Presence };
}

export const profilePatchSchema = z.object({
  first_name: z.string().trim().max(100).nullable().optional(),
  last_name: z.string().trim().max(100).nullable().optional(),
  email: z.email('Invalid e-mail address').nullable().optional(),
  locale: z.string().max(10).nullable().optional(),
  private_settings: z.object({ presence: z.enum(PRESENCES).optional() }).optional(),
});

/** Public client configuration: GET /api/config. */
export interface ClientConfig {
  release: string;
  help_contact: string;
  idle_limit_seconds: number;
  idle_prompt_seconds: number;
  sso: { google: boolean; azure: boolean };
}

export interface Subscription {
  id: number;
  max_environments: number;
  starts_at: string;
  expires_at: string;
}

export interface ActiveSubscriptionBody {
  subscription: Subscription | null;
  expired: boolean;
}
