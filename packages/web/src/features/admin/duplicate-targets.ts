import { type DefDossierDefField, valueRefsOf } from '@dossierbase/core';

export interface CopyTarget {
  /** The data field (def_dossier_def_field) that would use the base field. */
  id: number;
  entityId: number;
  label: string;
  entityName: string;
}

/**
 * The data fields "Duplicate base field" can copy a base field onto: fields of the same type (a placed
 * field cannot change type) that do not use it yet and are not locked, those of `currentEntity` first.
 * None for a type with list options: the server keeps a list field's base field (its values are that
 * field's option ids).
 */
export function copyTargets(
  baseField: { id: number; type: string },
  dataFields: readonly DefDossierDefField[],
  entityName: (id: number) => string,
  currentEntity?: number,
): CopyTarget[] {
  if (valueRefsOf(baseField.type) === 'options') return [];
  return dataFields
    .filter(
      (field) =>
        field.def_field.type === baseField.type && field.def_field.id !== baseField.id && !field.locked,
    )
    .map((field) => ({
      id: field.id,
      entityId: field.def_dossier_id,
      entityName: entityName(field.def_dossier_id),
      label: `${entityName(field.def_dossier_id)} / ${field.name}`,
    }))
    .sort(
      (a, b) =>
        Number(b.entityId === currentEntity) - Number(a.entityId === currentEntity) ||
        a.label.localeCompare(b.label),
    );
}
