export * from './conditions';
export * from './required';
