import type { DefDossierDefField } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import { copyTargets } from './duplicate-targets';

// Only what copyTargets reads; the rest of a data field does not matter here.
function dataField(id: number, entity: number, base: { id: number; type: string }, locked = false) {
  return {
    id,
    uuid: `u${id}`,
    environment_id: 1,
    def_dossier_id: entity,
    name: `field_${id}`,
    obligatory: false,
    locked,
    settings: {},
    def_field: { id: base.id, uuid: `b${base.id}`, name: `base_${base.id}`, type: base.type, settings: {} },
  } as DefDossierDefField;
}

const names: Record<number, string> = { 1: 'Client', 2: 'Case', 3: 'Address' };
const entityName = (id: number) => names[id];

describe('the data fields a base field can be copied onto', () => {
  const name = { id: 10, type: 'text' };
  const fields = [
    dataField(1, 1, name), // already uses it
    dataField(2, 2, { id: 11, type: 'text' }),
    dataField(3, 3, { id: 12, type: 'text' }),
    dataField(4, 1, { id: 13, type: 'text' }),
    dataField(5, 2, { id: 14, type: 'amount' }), // another type
    dataField(6, 3, { id: 15, type: 'text' }, true), // locked
  ];

  it('offers fields of the same type that do not use it yet and are not locked, the current entity first', () => {
    expect(copyTargets(name, fields, entityName, 2).map((target) => target.label)).toEqual([
      'Case / field_2',
      'Address / field_3',
      'Client / field_4',
    ]);
  });

  it('never offers a field the base field is already on', () => {
    expect(copyTargets(name, fields, entityName).map((target) => target.id)).not.toContain(1);
  });

  it('offers nothing for a list or tree: the server keeps a list field on its base field', () => {
    const status = { id: 20, type: 'list' };
    const lists = [dataField(7, 2, { id: 21, type: 'list' }), dataField(8, 3, { id: 22, type: 'list' })];
    expect(copyTargets(status, lists, entityName)).toEqual([]);
  });
});
