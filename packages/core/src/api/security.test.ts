import { describe, expect, test } from 'vitest';
import {
  describeUserAgent,
  isComplexPassword,
  RECOVERY_CODE_PATTERN,
  recoveryCodeSchema,
  securityPolicySchema,
} from './security';

describe('security schemas and helpers', () => {
  test('a device is told from its user agent', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/141.0.0.0 Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome', system: 'Linux' });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 Edg/130.0',
      ),
    ).toEqual({ browser: 'Edge', system: 'Windows' });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari', system: 'iOS' });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:131.0) Gecko/20100101 Firefox/131.0',
      ),
    ).toEqual({
      browser: 'Firefox',
      system: 'macOS',
    });
    expect(describeUserAgent(null)).toEqual({ browser: null, system: null });
  });

  test('complex passwords have lower and upper case letters, a digit and a symbol', () => {
    expect(isComplexPassword('Abcdefgh1!')).toBe(true);
    expect(isComplexPassword('Äbcdéfgh1 ')).toBe(true);
    expect(isComplexPassword('abcdefgh1!')).toBe(false);
    expect(isComplexPassword('ABCDEFGH1!')).toBe(false);
    expect(isComplexPassword('Abcdefgh!!')).toBe(false);
    expect(isComplexPassword('Abcdefgh12')).toBe(false);
  });

  test('a recovery code is read as typed, in any case', () => {
    expect(recoveryCodeSchema.parse(' ABCDE-23456 ')).toBe('abcde-23456');
    expect(recoveryCodeSchema.safeParse('abcde23456').success).toBe(false);
    expect(RECOVERY_CODE_PATTERN.test('abcde-23456')).toBe(true);
  });

  test('the policy keeps its bounds', () => {
    const policy = {
      require_two_factor: true,
      password_min_length: 12,
      password_complexity: false,
      session_hours: null,
    };
    expect(securityPolicySchema.safeParse(policy).success).toBe(true);
    expect(securityPolicySchema.safeParse({ ...policy, password_min_length: 7 }).success).toBe(false);
    expect(securityPolicySchema.safeParse({ ...policy, session_hours: 0 }).success).toBe(false);
    expect(securityPolicySchema.safeParse({ ...policy, session_hours: 1.5 }).success).toBe(false);
  });
});
