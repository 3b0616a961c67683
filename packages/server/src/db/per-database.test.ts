import { expect, test } from 'vitest';
import type { Db } from './database';
import { perDatabase } from './per-database';

test('each database has a state of its own, made once, on first use', () => {
  let made = 0;
  const countsOf = perDatabase(() => {
    made += 1;
    return new Map<string, number>();
  });
  const first = {} as Db;
  const second = {} as Db;
  expect(made).toBe(0);
  countsOf(first).set('uses', 2);
  expect(countsOf(first).get('uses')).toBe(2);
  expect(countsOf(second).get('uses')).toBeUndefined();
  expect(made).toBe(2);
});
