import { describe, expect, it } from 'vitest';
import { cutAtWord } from './message-text';

describe('cutAtWord', () => {
  it('keeps short texts and cuts long ones at a word boundary', () => {
    expect(cutAtWord('Short text', 30)).toBe('Short text');
    expect(cutAtWord('The quick brown fox jumps over the lazy dog', 20)).toBe('The quick brown fox…');
    expect(cutAtWord('Averyveryverylongwordwithoutspaces', 10)).toBe('Averyveryv…');
    expect(cutAtWord('  spaced\n\nout   text  ', 30)).toBe('spaced out text');
  });
});
