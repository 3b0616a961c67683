import { randomInt } from 'node:crypto';
import {
  DEFAULT_SECURITY_POLICY,
  isComplexPassword,
  RECOVERY_CODE_COUNT,
  SECURITY_MESSAGES,
  type SecurityPolicy,
} from '@dossierbase/core';
import { sha256 } from '../../auth/secret-tokens';
import type { Db } from '../../db/database';
import type { EnvironmentRow } from '../../db/schema';
import { badRequest } from '../../http-errors';

const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'; // no 0/o, 1/l: read from paper

function recoveryCode(): string {
  const part = () =>
    Array.from({ length: 5 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${part()}-${part()}`;
}

/** Ten new recovery codes for the user, which replace any earlier ones; answered once, stored hashed. */
export async function issueRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('user_recovery_code').where('user_id', '=', userId).execute();
    await trx
      .insertInto('user_recovery_code')
      .values(codes.map((code) => ({ user_id: userId, code_hash: sha256(code) })))
      .execute();
  });
  return codes;
}

/** Spends one unused recovery code of the user; false when it is not one of theirs or was used. */
export async function consumeRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  const spent = await db
    .updateTable('user_recovery_code')
    .set({ used_at: new Date() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', sha256(code.trim().toLowerCase()))
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return spent !== undefined;
}

export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('user_recovery_code')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export const policyOf = (
  environment: Pick<
    EnvironmentRow,
    'require_two_factor' | 'password_min_length' | 'password_complexity' | 'session_hours'
  >,
): SecurityPolicy => ({
  require_two_factor: environment.require_two_factor,
  password_min_length: environment.password_min_length,
  password_complexity: environment.password_complexity,
  session_hours: environment.session_hours,
});

/** The environments the user is an active member of, with their policies. */
function membershipsWithPolicy(db: Db, userId: number) {
  return db
    .selectFrom('environment_user as eu')
    .innerJoin('environment as e', 'e.id', 'eu.environment_id')
    .select(['e.name', 'e.require_two_factor', 'e.password_min_length', 'e.password_complexity'])
    .where('eu.user_id', '=', userId)
    .where('eu.active', '=', true)
    .where('e.active', '=', true)
    .orderBy('e.name')
    .execute();
}

/** The strictest password rules of the user's environments, and those that require two-factor sign-in. */
export async function userPolicy(db: Db, userId: number) {
  const rows = await membershipsWithPolicy(db, userId);
  return {
    password: {
      min_length: Math.max(
        DEFAULT_SECURITY_POLICY.password_min_length,
        ...rows.map((r) => r.password_min_length),
      ),
      complexity: rows.some((r) => r.password_complexity),
    },
    required_by: rows.filter((r) => r.require_two_factor).map((r) => r.name),
  };
}

/** Refuses (400 on `field`) a new password that the policy of one of the user's environments does not allow. */
export async function checkPasswordPolicy(db: Db, userId: number, password: string, field = 'password') {
  const { password: rules } = await userPolicy(db, userId);
  if ([...password].length < rules.min_length)
    throw badRequest({ [field]: SECURITY_MESSAGES.passwordTooShort });
  if (rules.complexity && !isComplexPassword(password))
    throw badRequest({ [field]: SECURITY_MESSAGES.passwordComplexity });
}
