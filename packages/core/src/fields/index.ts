export * from './amount';
export * from './auto-increment';
export * from './calc';
export * from './custom-action-button';
export * from './date';
export * from './dates';
export * from './email';
export * from './file';
export * from './geolocation';
export * from './image-code';
export * from './item';
export * from './link';
export * from './list';
export * from './operators';
export * from './registry';
export * from './rich-text';
export * from './settings';
export {
  formatBoolean,
  isEmpty as isEmptyFieldValue,
  parseLocaleNumber,
  resolveLocale,
  roundTo,
} from './shared';
export * from './systemdate';
export * from './systemuser';
export * from './text';
export * from './textarea';
export * from './time';
export * from './tree';
export * from './types';
export * from './url';
export * from './user';
