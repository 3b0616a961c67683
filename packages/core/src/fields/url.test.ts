import { describe, expect, it } from 'vitest';
import { urlField } from './url';

const s = urlField.settingsSchema.parse({});

describe('url field', () => {
  it('accepts http(s) addresses and adds a missing scheme', () => {
    expect(urlField.normalise('https://example.com/a?b=1#c', s)).toEqual({
      ok: true,
      value: 'https://example.com/a?b=1#c',
    });
    expect(urlField.normalise(' www.example.nl ', s)).toEqual({ ok: true, value: 'https://www.example.nl' });
    expect(urlField.normalise('http://localhost:3000/x', s).ok).toBe(true);
  });

  it('refuses other schemes and junk', () => {
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      'ftp://example.com',
      'not a url',
      'http://exa mple.com',
    ])
      expect(urlField.normalise(bad, s)).toEqual({ ok: false, message: 'Enter a valid URL (http or https)' });
    expect(urlField.normalise(`https://e.com/${'a'.repeat(2048)}`, s)).toEqual({
      ok: false,
      message: 'Enter at most 2048 characters',
    });
  });

  it('formats, searches and casts as text', () => {
    expect(urlField.format('https://e.com', s)).toBe('https://e.com');
    expect(urlField.sqlCast(s)).toBe('text');
    expect(urlField.operators).toContain('string_exact_equals');
  });
});
