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
import { systemdateField } from './systemdate';
import { systemuserField } from './systemuser';
import { textField } from './text';
import { textareaField } from './textarea';
import { timeField } from './time';
import { treeField } from './tree';
import { FIELD_TYPE_NAMES, type FieldType, type FieldTypeName } from './types';
import { urlField } from './url';
import { userField } from './user';

export { FIELD_TYPE_NAMES };

export const fieldTypes: Readonly<Record<FieldTypeName, FieldType>> = {
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
};

/** The spec's error catalogue names this message. */
export const UNKNOWN_FIELD_TYPE_MESSAGE = 'Unknown field type';

export function isFieldTypeName(name: unknown): name is FieldTypeName {
  return typeof name === 'string' && (FIELD_TYPE_NAMES as readonly string[]).includes(name);
}

export function getFieldType(name: string): FieldType {
  if (!isFieldTypeName(name)) throw new Error(`${UNKNOWN_FIELD_TYPE_MESSAGE}: "${name}"`);
  return fieldTypes[name];
}

/** Stored settings (possibly partial or old) with the type's defaults filled in. */
export function parseFieldSettings(name: string, settings: unknown): z.output<z.ZodType> {
  return getFieldType(name).settingsSchema.parse(settings ?? {});
}
