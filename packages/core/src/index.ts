export * from './api/index';
export * from './catalogue';
export * from './conditions/index';
export * from './fields/index';
export * from './formula/index';
export * from './query/index';
export * from './recurrence/index';
