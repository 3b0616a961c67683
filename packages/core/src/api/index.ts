export * from './abilities';
export * from './auth';
export * from './common';
export * from './dossier';
export * from './entity';
export * from './environment';
export * from './file';
export * from './ids';
