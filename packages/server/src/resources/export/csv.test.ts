import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvRecord } from './csv';

// The export writes its CSV records itself (csv.ts says why); they must be what csv-stringify, the
// well-kept reference, writes for the same cells. With CRLF records csv-stringify leaves a cell with a
// bare CR or LF unquoted, which a spreadsheet reads as two rows: told to quote those too (quoted_match), it
// writes what the export writes.

const ALPHABET = ['a', 'Z', ' ', ',', '"', '\r', '\n', '|', ';', "'", 'é', '€', '😀', '\t', '0'];

function randomCells(next: () => number): string[] {
  const count = 1 + Math.floor(next() * 8);
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * 12);
    let cell = '';
    for (let i = 0; i < length; i++) cell += ALPHABET[Math.floor(next() * ALPHABET.length)];
    return cell;
  });
}

/** A seeded generator (mulberry32), so a failure can be replayed. */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('csvRecord', () => {
  it('quotes cells with a comma, quote or line break and doubles the quotes', () => {
    expect(csvRecord(['plain', 'a,b', 'say "hi"', 'two\nlines', ''])).toBe(
      'plain,"a,b","say ""hi""","two\nlines",\r\n',
    );
  });

  it('writes what csv-stringify writes, for 2,000 random records', () => {
    const next = seeded(18);
    for (let n = 0; n < 2000; n++) {
      const cells = randomCells(next);
      expect(csvRecord(cells)).toBe(
        stringify([cells], { record_delimiter: 'windows', quoted_match: /[\r\n]/ }),
      );
    }
  });
});
