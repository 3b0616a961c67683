import { z } from 'zod';
import { REQUIRED_MESSAGE } from './common';

// Security (/security): two-factor sign-in with an authenticator app and recovery codes, the
// environment's policy (two-factor required, password strength, session length) and the user's
// open sessions.

/** 403 of every call about an environment that requires two-factor sign-in, for a member without it. */
export const TWO_FACTOR_REQUIRED = 'two_factor_required';

export const SECURITY_MESSAGES = {
  alreadyOn: 'Two-factor sign-in is already on',
  notStarted: 'Start the set-up of two-factor sign-in again',
  notOn: 'Two-factor sign-in is off',
  enrolFirst: 'Turn on two-factor sign-in for yourself before you require it of others',
  passwordTooShort: 'This password is shorter than your environments require',
  passwordComplexity: 'Use lower and upper case letters, a digit and a symbol',
  codeDigits: 'Enter the six digits of the code',
  recoveryFormat: 'Enter a recovery code such as abcde-23456',
} as const;

/** How many recovery codes a user gets; each works once instead of a code. */
export const RECOVERY_CODE_COUNT = 10;
/** A recovery code as shown: two groups of five lower-case letters and digits. */
export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-[a-z0-9]{5}$/;

/** A recovery code typed on the code screen instead of the app's code. */
export const recoveryCodeSchema = z
  .string({ error: REQUIRED_MESSAGE })
  .trim()
  .toLowerCase()
  .min(1, REQUIRED_MESSAGE)
  .regex(RECOVERY_CODE_PATTERN, SECURITY_MESSAGES.recoveryFormat);

/** GET /api/user/security: the signed-in user's two-factor state and the policy of their environments. */
export const securityOverviewSchema = z.object({
  two_factor: z.boolean(),
  recovery_codes_left: z.number(),
  /** names of the environments that require two-factor sign-in of their members */
  required_by: z.array(z.string()),
  /** the strictest password rules of the user's environments */
  password: z.object({ min_length: z.number(), complexity: z.boolean() }),
});
export type SecurityOverview = z.infer<typeof securityOverviewSchema>;

/** POST /api/user/two_factor/setup: a new secret to enter in an authenticator app. */
export const twoFactorSetupSchema = z.object({
  secret: z.string(),
  /** the otpauth address, which the client shows as a QR code */
  otpauth_url: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

export const twoFactorConfirmSchema = z.object({
  code: z
    .string({ error: REQUIRED_MESSAGE })
    .trim()
    .min(1, REQUIRED_MESSAGE)
    .regex(/^\d{6}$/, SECURITY_MESSAGES.codeDigits),
});

/** The recovery codes, shown once. */
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

export const passwordConfirmSchema = z.object({
  password: z.string({ error: REQUIRED_MESSAGE }).min(1, REQUIRED_MESSAGE).max(4096),
});

/** One open session (sign-in) of the signed-in user. */
export const userSessionSchema = z.object({
  id: z.number(),
  user_agent: z.string().nullable(),
  address: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string(),
  /** the session of this call */
  current: z.boolean(),
});
export type UserSessionInfo = z.infer<typeof userSessionSchema>;
export const userSessionListSchema = z.object({ results: z.array(userSessionSchema) });

export const endedSessionsSchema = z.object({ ended: z.number() });

export const PASSWORD_POLICY_MIN = 8;
export const PASSWORD_POLICY_MAX = 128;
export const SESSION_HOURS_MAX = 24 * 90;

/** An environment's security policy (its admins set it). */
export const securityPolicySchema = z.object({
  require_two_factor: z.boolean(),
  password_min_length: z
    .number()
    .int()
    .min(PASSWORD_POLICY_MIN, `At least ${PASSWORD_POLICY_MIN}`)
    .max(PASSWORD_POLICY_MAX, `At most ${PASSWORD_POLICY_MAX}`),
  password_complexity: z.boolean(),
  /** the longest a sign-in lasts, in hours; null: the platform's own */
  session_hours: z
    .number()
    .int()
    .min(1, 'At least 1')
    .max(SESSION_HOURS_MAX, `At most ${SESSION_HOURS_MAX}`)
    .nullable(),
});
export type SecurityPolicy = z.infer<typeof securityPolicySchema>;

export const DEFAULT_SECURITY_POLICY: SecurityPolicy = {
  require_two_factor: false,
  password_min_length: PASSWORD_POLICY_MIN,
  password_complexity: false,
  session_hours: null,
};

/** The password meets the complexity rule: lower and upper case letters, a digit and a symbol. */
export const isComplexPassword = (password: string) =>
  /\p{Ll}/u.test(password) && /\p{Lu}/u.test(password) && /\d/.test(password) && /[^\p{L}\d]/u.test(password);

/** A browser and system of a user agent, for the session list ('Firefox on Linux'); null parts unknown. */
export function describeUserAgent(userAgent: string | null): {
  browser: string | null;
  system: string | null;
} {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\//.test(ua) || /HeadlessChrome\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : null;
  const system = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad/.test(ua)
        ? 'iOS'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  return { browser, system };
}
