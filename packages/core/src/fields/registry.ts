import type { z } from 'zod';
import { amountField } from './amount';
import { autoIncrementField } from './auto-increment';
import { calcField } from './calc';
import { customActionButtonField } from './custom-action-button';
import { dateField } from './date';
import { emailField } from './email';
import { fileField } from './file';
import { geolocationField } from './geolocation';
import { imageCodeField } from './image-code';
import { linkField } from './link';
import { listField } from './list';
import {
  OPERATOR_VALUE_KINDS,
  OPERATOR_VALUE_SCHEMAS,
  type OperatorName,
  type OperatorValueKind,
} from './operators';
import { systemdateField } from './systemdate';
import { systemuserField } from './systemuser';
import { textField } from './text';
import { textareaField } from './textarea';
import { timeField } from './time';
import { treeField } from './tree';
import { FIELD_TYPE_NAMES, type FieldType, type FieldTypeName, type ValueRefs } from './types';
import { urlField } from './url';
import { userField } from './user';

export { FIELD_TYPE_NAMES };

// Each entry keeps its own settings and value types (FieldSettings<'text'> is TextSettings); `satisfies`
// checks that every name has its module without widening them to FieldType.
export const fieldTypes = {
  text: textField,
  textarea: textareaField,
  amount: amountField,
  url: urlField,
  email: emailField,
  autoIncrement: autoIncrementField,
  calc: calcField,
  imageCode: imageCodeField,
  date: dateField,
  time: timeField,
  file: fileField,
  geolocation: geolocationField,
  list: listField,
  tree: treeField,
  user: userField,
  link: linkField,
  customActionButton: customActionButtonField,
  systemdate: systemdateField,
  systemuser: systemuserField,
} as const satisfies Readonly<Record<FieldTypeName, FieldType>>;

export type FieldTypes = typeof fieldTypes;
/** The parsed settings of a type: FieldSettings<'list'> is ListSettings. */
export type FieldSettings<T extends FieldTypeName> = z.output<FieldTypes[T]['settingsSchema']>;

/** The spec's error catalogue names this message. */
export const UNKNOWN_FIELD_TYPE_MESSAGE = 'Unknown field type';

export function isFieldTypeName(name: unknown): name is FieldTypeName {
  return typeof name === 'string' && (FIELD_TYPE_NAMES as readonly string[]).includes(name);
}

/**
 * The module of a type, as the wide FieldType (settings as a record): what code that holds any type
 * name calls. Code about one type reads fieldTypes.list and keeps ListSettings.
 */
export function getFieldType(name: string): FieldType {
  if (!isFieldTypeName(name)) throw new Error(`${UNKNOWN_FIELD_TYPE_MESSAGE}: "${name}"`);
  return fieldTypes[name];
}

/** Types whose value the server computes or does not keep (autoIncrement, calc, system fields, buttons). */
export function isServerComputed(name: string | null | undefined): boolean {
  return isFieldTypeName(name) && fieldTypes[name].serverComputed;
}

/** What the ids in a type's value stand for (list options, users, files, dossiers), or null. */
export function valueRefsOf(name: string | null | undefined): ValueRefs | null {
  return isFieldTypeName(name) ? fieldTypes[name].refersTo : null;
}

/** The value kind of an operator as used on a field type: equals on a list takes an option. */
export function operatorValueKind(fieldType: string, operator: OperatorName): OperatorValueKind {
  if (operator === 'equals' || operator === 'not_equals') {
    const refs = valueRefsOf(fieldType);
    if (refs === 'options') return 'option';
    if (refs === 'users') return 'user';
  }
  return OPERATOR_VALUE_KINDS[operator];
}

export function operatorValueSchema(fieldType: string, operator: OperatorName): z.ZodType {
  return OPERATOR_VALUE_SCHEMAS[operatorValueKind(fieldType, operator)];
}
