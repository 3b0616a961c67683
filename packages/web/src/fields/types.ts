import type { DisplayItem, FieldContext, LinkedDossier, ListOption, OperatorName } from '@dossierbase/core';
import type { ComponentType, ReactNode } from 'react';

export interface UserOption {
  id: number;
  name: string;
}

/** A filter of a link picker's choices: the list call's parameters and the form that made them. */
export interface LinkFilter {
  params: Readonly<Record<string, string>>;
  /** what the filter form held, to open it again as it was */
  form: unknown;
}

export interface DossierPage {
  items: LinkedDossier[];
  total: number;
}

/** Data sources a page hands to the field components (only the types that need them read them). */
export interface FieldSources {
  /** Users for the user picker, searched server-side (debounced 300 ms by the picker). */
  loadUsers?: (search: string) => Promise<UserOption[]>;
  /** Known users for showing user ids as names. */
  users?: readonly UserOption[];
  /**
   * Link picker: page is 1-based; limit is 25 without search and 50 with one; `filter` holds the
   * list call's parameters of the filter modal.
   */
  searchDossiers?: (
    search: string,
    page: number,
    limit: number,
    filter?: Readonly<Record<string, string>>,
  ) => Promise<DossierPage>;
  /**
   * Link picker's Filter button: the child entity's search form in a modal, opened as `current`
   * left it. Resolves with the new filter, null when it was reset, undefined when cancelled.
   */
  filterLinkedDossiers?: (current: LinkFilter | null) => Promise<LinkFilter | null | undefined>;
  /** List/tree options when the item does not carry def_field_lists itself. */
  options?: readonly ListOption[];
  /** File upload; resolves to the stored file id. Without it the server's POST /api/file is used. */
  uploadFile?: (file: File) => Promise<{ id: number; name: string }>;
  /** Map tiles for geolocation fields ({z}/{x}/{y} template); default VITE_MAP_TILE_URL or OpenStreetMap. */
  mapTileUrl?: string;
  /** Link picker's New button: a new dossier of the link's child entity, or null when cancelled. */
  createLinkedDossier?: () => Promise<LinkedDossier | null>;
  /** Custom action button pressed. */
  onAction?: (item: DisplayItem) => void;
}

export interface FieldEditorProps<V = unknown> extends FieldSources {
  /** The stored (normalised) value; links: LinkedDossier[]. */
  value: V | null | undefined;
  /** Called with a normalised value only; invalid input is reported through onInvalid. */
  onChange: (value: V | null) => void;
  /** Stored settings (defaults are filled in by the component). */
  settings: Record<string, unknown>;
  item: DisplayItem;
  label?: ReactNode;
  description?: ReactNode;
  required?: boolean;
  /** A server or form error; overrides the component's own normalise message. */
  error?: ReactNode;
  disabled?: boolean;
  /** The registry's normalise message for the current input, or null when it is valid. */
  onInvalid?: (message: string | null) => void;
  ctx?: FieldContext;
}

export interface FieldDisplayProps<V = unknown> extends FieldSources {
  value: V | null | undefined;
  settings: Record<string, unknown>;
  item: DisplayItem;
  /** List mode: shorter rich text preview and fewer tags. */
  listMode?: boolean;
}

export interface SearchValue {
  operator: OperatorName;
  /** As OPERATOR_VALUE_SCHEMAS expects for the operator's kind (strings for dates: YYYY-MM-DD). */
  value: unknown;
}

export interface FieldSearchProps extends FieldSources {
  /** Dates may also be compared with no date (NULL) or any date (NOT NULL): the query builder's conditions. */
  emptyDates?: boolean;
  value: SearchValue | null;
  onChange: (value: SearchValue | null) => void;
  settings: Record<string, unknown>;
  item: DisplayItem;
  label?: ReactNode;
}

export interface FieldComponents {
  /** null: the type has no editor (autoIncrement). */
  Editor: ComponentType<FieldEditorProps> | null;
  Display: ComponentType<FieldDisplayProps>;
  /** null: the type has no query-condition operators. */
  SearchInput: ComponentType<FieldSearchProps> | null;
}
