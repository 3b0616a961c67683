import { describe, expect, it } from 'vitest';
import { emailField } from './email';

const s = emailField.settingsSchema.parse({});

describe('email field', () => {
  it('accepts addresses and lower-cases the domain', () => {
    expect(emailField.normalise(' Jan.Jansen+x@Example.NL ', s)).toEqual({
      ok: true,
      value: 'Jan.Jansen+x@example.nl',
    });
  });

  it('refuses malformed addresses', () => {
    for (const bad of [
      'jan',
      'jan@',
      '@example.nl',
      'jan@example',
      'jan@@example.nl',
      'ja n@example.nl',
      'a..b@x.nl',
    ])
      expect(emailField.normalise(bad, s)).toEqual({ ok: false, message: 'Enter a valid e-mail address' });
    expect(emailField.normalise(`${'a'.repeat(250)}@x.nl`, s).ok).toBe(false);
  });

  it('formats and searches as text', () => {
    expect(emailField.format('a@b.nl', s)).toBe('a@b.nl');
    expect(emailField.operators).toContain('string_like_equals');
    expect(emailField.valueSchema(s).safeParse('a@b.nl').success).toBe(true);
  });
});
