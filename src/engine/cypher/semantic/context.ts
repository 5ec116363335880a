import { CypherSyntaxError, type GraphError, type GraphErrorOptions, type SourcePosition } from '../../errors/index.js';
import type { BaseNode } from '../ast/base.js';
import type { Expression, Variable } from '../ast/expressions.js';
import type { Statement } from '../ast/statements.js';
import { lookupFunction, type CypherFunction } from '../functions/index.js';
import { formatPosition } from '../lexer/syntax-error.js';
import { inferType } from './infer-type.js';
import type { StaticType } from './static-types.js';

/** A procedure's signature, as far as the front end needs it (a `ProcedureDefinition` fits). */
export interface ProcedureSignature {
  readonly name: string;
  readonly inputs: readonly { readonly name: string; readonly type: string; readonly default?: unknown }[];
  readonly outputs: readonly { readonly name: string; readonly type: string }[];
}

/** Options of `analyze()` / `validate()`. */
export interface AnalyzeOptions {
  /** Resolves procedure names (`db.labels`); without it procedure calls are not checked. */
  readonly procedures?: (name: string) => ProcedureSignature | undefined;
  /** Resolves function names (case-insensitive); defaults to the built-in function registry. */
  readonly functions?: (name: string) => CypherFunction | undefined;
  /** Parameter names the request supplies; enables the check of implicit procedure arguments. */
  readonly parameterNames?: ReadonlySet<string>;
}

/** A variable as the binder sees it: name, static type, and where it was introduced. */
export interface VariableSymbol {
  readonly name: string;
  readonly type: StaticType;
  /** The AST node that introduced it (null for imported or implicit variables). */
  readonly declaration: Variable | null;
}

/** Constructs the error classes rules report (CypherSyntaxError by default). */
export type ErrorClass = new (message: string, options?: GraphErrorOptions) => GraphError;

/**
 * Shared state of one analysis (graphql-js `ValidationContext`): collected errors, the binder's
 * variable resolutions, type inference, and lookups of functions and procedures.
 */
export class ValidationContext {
  private readonly errors: GraphError[] = [];
  private readonly symbols = new Map<Variable, VariableSymbol>();
  readonly lookupFunction: (name: string) => CypherFunction | undefined;

  constructor(
    readonly statement: Statement,
    readonly options: AnalyzeOptions = {},
  ) {
    this.lookupFunction = options.functions ?? lookupFunction;
  }

  /** Records an error; analysis continues so every rule gets to run. */
  reportError(error: GraphError): void {
    this.errors.push(error);
  }

  /** Every error reported so far, in report order. */
  getErrors(): readonly GraphError[] {
    return this.errors;
  }

  /** Builds and reports an error located at `node`. */
  report(node: BaseNode, message: string, detail: string, errorClass: ErrorClass = CypherSyntaxError): void {
    const position = positionOf(node);
    const text = position ? `${message} ${formatPosition(position)}` : message;
    this.reportError(new errorClass(text, { detail, position }));
  }

  /** Called by the binder for every variable reference or declaration it resolves. */
  bind(variable: Variable, symbol: VariableSymbol): void {
    this.symbols.set(variable, symbol);
  }

  /** The symbol a variable occurrence resolved to (undefined when unresolved). */
  symbolOf(variable: Variable): VariableSymbol | undefined {
    return this.symbols.get(variable);
  }

  /** The static type of an expression, using the binder's resolutions. */
  typeOf(expression: Expression): StaticType {
    return inferType(expression, (variable) => this.symbols.get(variable)?.type ?? 'Any', this.lookupFunction);
  }
}

/** The position of a node, if it has a location. */
export function positionOf(node: BaseNode): SourcePosition | undefined {
  return node.loc ? { offset: node.loc.start, line: node.loc.line, column: node.loc.column } : undefined;
}
