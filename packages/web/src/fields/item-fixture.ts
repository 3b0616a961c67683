import type { DisplayItem } from '@dossierbase/core';

// For the tests of the field components: a display item of a data field of `type` (obligatory).

export function fieldItem(
  type: string,
  settings: Record<string, unknown> = {},
  extra: Partial<DisplayItem> = {},
): DisplayItem {
  return {
    id: 1,
    uuid: 'u',
    def_dossier_id: 1,
    display_position_id: null,
    def_dossier_def_field: {
      id: 2,
      uuid: 'v',
      environment_id: 1,
      def_dossier_id: 1,
      name: 'Field name',
      obligatory: true,
      locked: false,
      roles: [],
      permissions_type: 'EXCLUDE_SELECTED_ROLES',
      settings: {},
      def_field: { id: 3, uuid: 'w', name: 'f', type, settings },
    },
    def_dossier_link: null,
    view: 'edit',
    col: 1,
    rank: 1,
    colspan: 1,
    rowspan: 1,
    roles: [],
    permissions_type: 'EXCLUDE_SELECTED_ROLES',
    translations: [],
    settings: {},
    ...extra,
  };
}
