export * from './token-kind.js';
export type { Token } from './token.js';
export { Lexer, tokenize } from './lexer.js';
export { syntaxError, positionAt, formatPosition } from './syntax-error.js';
