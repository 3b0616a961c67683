export * from './document';
export * from './list-params';
