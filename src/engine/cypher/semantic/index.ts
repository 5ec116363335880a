export { analyze, validate, type AnalyzedStatement } from './analyze.js';
export type { ClauseScope } from './binder.js';
export { ValidationContext, type AnalyzeOptions, type ProcedureSignature, type VariableSymbol } from './context.js';
export { didYouMean, suggestionList } from './did-you-mean.js';
export { specifiedRules, type ValidationRule } from './rules/index.js';
export * from './static-types.js';
