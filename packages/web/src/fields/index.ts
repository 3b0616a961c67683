// Per-field-type components: getFieldComponents(type) -> { Editor, Display, SearchInput }.
export * from './field-item';
export * from './helpers';
export { LinkedSummary, linkedDossiers } from './link';
export { FIELD_COMPONENTS, getFieldComponents, UNKNOWN_FIELD_COMPONENTS } from './registry';
export { sanitiseRichText } from './rich-text';
export { FieldSearchInput, isSearchValueValid, useOperatorLabel } from './search-input';
export type * from './types';
export { UnknownFieldType } from './unknown';
