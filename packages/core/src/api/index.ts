export * from './auth';
export * from './common';
export * from './entity';
export * from './environment';
