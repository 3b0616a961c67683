import { describe, expect, test } from 'vitest';
import type { EnvironmentAccess } from './environment';
import { readerSummaryKey, type SummaryItemRule, summaryVariants } from './summary';

const item = (
  id: number,
  roles: number[] = [],
  permissions_type: SummaryItemRule['permissions_type'] = 'INCLUDE_SELECTED_ROLES',
): SummaryItemRule => ({ id, roles, permissions_type });
const open = (id: number) => item(id, [], 'EXCLUDE_SELECTED_ROLES');

const member = (roleIds: number[]) =>
  ({
    user: { id: 1, roles: [] },
    environment: { id: 1 },
    membership: { credentials: [], role_ids: roleIds },
  }) as unknown as EnvironmentAccess;
const admin = {
  user: { id: 1, roles: ['ROLE_ADMIN'] },
  environment: { id: 1 },
  membership: null,
} as unknown as EnvironmentAccess;

describe('summary variants', () => {
  test('none without restricted items: everyone reads the stored summary', () => {
    const items = [open(1), open(2)];
    expect(summaryVariants(items)).toEqual([]);
    expect(readerSummaryKey(member([]), items)).toBeNull();
  });

  test('one per class of readers that does not see every restricted item, and the public one', () => {
    // 2 for role 10, 3 hidden from role 11, 4 for role 10 or 12
    const items = [open(1), item(2, [10]), item(3, [11], 'EXCLUDE_SELECTED_ROLES'), item(4, [10, 12])];
    const keys = summaryVariants(items).map((v) => v.key);
    expect(keys.sort()).toEqual(['2,3,4|', '2,3,4|2,4', '2,3,4|3', '2,3,4|3,4', '2,3,4|4'].sort());
    expect(readerSummaryKey(member([]), items)).toBe('2,3,4|3');
    expect(readerSummaryKey(member([11]), items)).toBe('2,3,4|');
    expect(readerSummaryKey(member([12]), items)).toBe('2,3,4|3,4');
    expect(readerSummaryKey(member([10, 11]), items)).toBe('2,3,4|2,4');
    // sees every restricted item, or an environment admin: the full summary
    expect(readerSummaryKey(member([10]), items)).toBeNull();
    expect(readerSummaryKey(admin, items)).toBeNull();
    const visible = summaryVariants(items).find((v) => v.key === '2,3,4|3,4')?.visible;
    expect([...(visible ?? [])].sort()).toEqual([3, 4]);
  });

  test('past the limit of classes, partial readers get the public summary', () => {
    const items = Array.from({ length: 9 }, (_, i) => item(i + 1, [100 + i]));
    expect(summaryVariants(items).map((v) => v.key)).toEqual(['1,2,3,4,5,6,7,8,9|']);
    expect(readerSummaryKey(member([100, 101]), items)).toBe('1,2,3,4,5,6,7,8,9|');
    expect(readerSummaryKey(member(items.map((_, i) => 100 + i)), items)).toBeNull();
  });

  test("a data field's roles restrict its summary items like the items' own", () => {
    // 2 is open as an item, but its field is only for role 10; 3 is for role 11 by the item
    const hiddenField = {
      ...open(2),
      field: { roles: [10], permissions_type: 'INCLUDE_SELECTED_ROLES' as const },
    };
    const items = [open(1), hiddenField, item(3, [11])];
    expect(
      summaryVariants(items)
        .map((v) => v.key)
        .sort(),
    ).toEqual(['2,3|', '2,3|2', '2,3|3'].sort());
    expect(readerSummaryKey(member([]), items)).toBe('2,3|');
    expect(readerSummaryKey(member([10]), items)).toBe('2,3|2');
    expect(readerSummaryKey(member([11]), items)).toBe('2,3|3');
    expect(readerSummaryKey(member([10, 11]), items)).toBeNull();
    // an item for role 10 does not widen a field hidden from it
    const narrowed = [
      { ...item(4, [10]), field: { roles: [10], permissions_type: 'EXCLUDE_SELECTED_ROLES' as const } },
    ];
    expect(readerSummaryKey(member([10]), narrowed)).toBe('4|');
    expect(readerSummaryKey(member([12]), narrowed)).toBe('4|');
  });
});
