import type { Visitor } from '../../ast/visitor.js';
import type { ValidationContext } from '../context.js';

/** A semantic check: given the shared context, a visitor over the statement (graphql-js `ValidationRule`). */
export type ValidationRule = (context: ValidationContext) => Visitor;
