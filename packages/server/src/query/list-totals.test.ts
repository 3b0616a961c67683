import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildDossier,
  buildListOption,
} from '../../test/entity-factories';
import { adminSetup } from '../../test/entity-test-setup';
import { buildDefDossier } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { columnOf } from './compile/columns';
import { parseListParams } from './list-query';
import { readDataVersion, totalsBesidePage } from './list-totals';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it("a new filter's totals are computed beside its page, under the version read before them, and again when the page saw a later one", async () => {
  const s = await adminSetup(t);
  const entity = await buildDefDossier(t.db, s.environment.id, { name: `Totals ${Date.now()}` });
  const base = await buildDefField(t.db, s.environment.id, { type: 'list' });
  const data = await buildDataField(t.db, entity, base.id);
  const item = await buildDisplayItem(t.db, entity, { dataFieldId: data.id, view: 'list' });
  const [open, closed] = [
    await buildListOption(t.db, base.id, { rank: 1 }),
    await buildListOption(t.db, base.id, { rank: 2 }),
  ];
  const column = columnOf({ item, field: base, dataField: data, link: null });
  const paramsOf = (option: number) => {
    const { params, errors } = parseListParams(
      { [item.id]: String(option) },
      {
        defDossierId: entity.id,
        environmentId: s.environment.id,
        filterable: new Map([[item.id, column!]]),
        embedded: null,
        userId: s.memberId,
      },
    );
    expect(errors).toEqual({});
    return params;
  };
  const add = (option: number, n: number) =>
    Promise.all(
      Array.from({ length: n }, (_, i) => buildDossier(t.db, entity, `Row ${i}`, { [data.id]: option })),
    );
  await add(open.id, 5);
  await add(closed.id, 3);
  const entities = [entity.id];
  const version = () => readDataVersion(t.db, entities);

  // asked for the first time: counted without waiting for the page, and used as they are
  const first = totalsBesidePage(t.db, paramsOf(open.id), entities);
  expect(first.beside).not.toBeNull();
  const counted = await first.beside!;
  expect(counted.version).toBe(await version());
  expect(counted.totals.count.items).toBe(5);
  expect(await first.at(counted.version)).toBe(counted.totals);

  // cached under the version the last page saw: they wait for the page (no statement of their own)
  expect(totalsBesidePage(t.db, paramsOf(open.id), entities).beside).toBeNull();
  // after a write that prediction is out of date, and the page's version counts again
  await add(open.id, 1);
  const afterWrite = totalsBesidePage(t.db, paramsOf(open.id), entities);
  expect(afterWrite.beside).toBeNull();
  expect((await afterWrite.at(await version())).count.items).toBe(6);

  // another filter, counted beside; a write lands before the page reads the version: counted again
  const other = totalsBesidePage(t.db, paramsOf(closed.id), entities);
  expect(other.beside).not.toBeNull();
  expect((await other.beside!).totals.count.items).toBe(3);
  await add(closed.id, 2);
  expect((await other.at(await version())).count.items).toBe(5);
});
