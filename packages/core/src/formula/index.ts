export * from './ast';
export * from './evaluate';
export * from './parser';
export { type Token, tokenize } from './tokenizer';
