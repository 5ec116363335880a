import { StatusCodes, classificationOf, type Classification } from './status-codes.js';

/** A position in a query text (offset is 0-based, line and column are 1-based). */
export interface SourcePosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** Options shared by every graphdb error. */
export interface GraphErrorOptions {
  /** openCypher TCK vocabulary (`UndefinedVariable`, `VariableAlreadyBound`, ...). */
  readonly detail?: string;
  readonly position?: SourcePosition;
  readonly cause?: unknown;
}

/** A status code of the `Neo.ClientError.*` classification. */
export type ClientErrorCode = `Neo.ClientError.${string}`;
/** A status code of the `Neo.TransientError.*` classification. */
export type TransientErrorCode = `Neo.TransientError.${string}`;
/** A status code of the `Neo.DatabaseError.*` classification. */
export type DatabaseErrorCode = `Neo.DatabaseError.${string}`;

/**
 * Base class of every error graphdb reports to a client. It is abstract: an error is a
 * `ClientError`, a `TransientError` or a `DatabaseError`, and the constructor of each accepts
 * only codes of its own classification (the code's middle segment, as Neo4j's status-code list
 * defines it), so `instanceof TransientError` and `isTransient` always agree with the code.
 * Where the code is only known at run time, `graphError()` picks the class. Each edge (Bolt,
 * HTTP, GraphQL, gRPC, CLI) maps it once, using `code` and `message`.
 */
export abstract class GraphError extends Error {
  readonly code: string;
  readonly detail?: string;
  readonly position?: SourcePosition;

  protected constructor(code: string, message: string, options: GraphErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GraphError';
    this.code = code;
    this.detail = options.detail;
    this.position = options.position;
  }

  /** `ClientError`, `TransientError` or `DatabaseError`: the code's middle segment. */
  get classification(): Classification {
    return classificationOf(this.code);
  }

  /** True when a driver should retry the transaction. */
  get isTransient(): boolean {
    return this.classification === 'TransientError';
  }
}

/** Errors caused by the client's request (`Neo.ClientError.*`). */
export class ClientError extends GraphError {
  constructor(code: ClientErrorCode, message: string, options: GraphErrorOptions = {}) {
    super(code, message, options);
    this.name = 'ClientError';
  }
}

/** Errors that may succeed if retried (`Neo.TransientError.*`: conflicts, unavailable database). */
export class TransientError extends GraphError {
  constructor(code: TransientErrorCode, message: string, options: GraphErrorOptions = {}) {
    super(code, message, options);
    this.name = 'TransientError';
  }
}

/** Errors inside the database itself (`Neo.DatabaseError.*`). */
export class DatabaseError extends GraphError {
  constructor(code: DatabaseErrorCode, message: string, options: GraphErrorOptions = {}) {
    super(code, message, options);
    this.name = 'DatabaseError';
  }
}

/**
 * The error of a status code known only at run time (a worker's or a cluster peer's reply, a
 * table of codes): its class follows the code's classification. A string that is no status code
 * becomes `Neo.DatabaseError.General.UnknownError` with the string in the message.
 */
export function graphError(code: string, message: string, options: GraphErrorOptions = {}): GraphError {
  if (isCodeOf(code, 'ClientError')) return new ClientError(code, message, options);
  if (isCodeOf(code, 'TransientError')) return new TransientError(code, message, options);
  if (isCodeOf(code, 'DatabaseError')) return new DatabaseError(code, message, options);
  return new DatabaseError(StatusCodes.UnknownError, `${message} (${code})`, options);
}

function isCodeOf<C extends Classification>(code: string, classification: C): code is `Neo.${C}.${string}` {
  return /^Neo\.[A-Za-z]+\.[A-Za-z]+\.[A-Za-z]+$/.test(code) && classificationOf(code) === classification;
}

/** Malformed or semantically invalid Cypher (the TCK files semantic checks here too). */
export class CypherSyntaxError extends ClientError {
  constructor(message: string, options: GraphErrorOptions = {}) {
    super(StatusCodes.SyntaxError, message, options);
    this.name = 'CypherSyntaxError';
  }
}

/** A semantic error with Neo4j's SemanticError code. */
export class SemanticError extends ClientError {
  constructor(message: string, options: GraphErrorOptions = {}) {
    super(StatusCodes.SemanticError, message, options);
    this.name = 'SemanticError';
  }
}

/** A value of the wrong type at run time or compile time (not the JS global TypeError). */
export class CypherTypeError extends ClientError {
  constructor(message: string, options: GraphErrorOptions = {}) {
    super(StatusCodes.TypeError, message, options);
    this.name = 'CypherTypeError';
  }
}

/** An argument outside a function's domain. */
export class ArgumentError extends ClientError {
  constructor(message: string, options: GraphErrorOptions = {}) {
    super(StatusCodes.ArgumentError, message, options);
    this.name = 'ArgumentError';
  }
}

/** Integer overflow, division by zero and similar. */
export class ArithmeticError extends ClientError {
  constructor(message: string, options: GraphErrorOptions = {}) {
    super(StatusCodes.ArithmeticError, message, options);
    this.name = 'ArithmeticError';
  }
}

/** A `$param` the query uses but the request did not supply. */
export class ParameterMissing extends ClientError {
  constructor(name: string, options: GraphErrorOptions = {}) {
    super(StatusCodes.ParameterMissing, `Expected parameter(s): ${name}`, {
      detail: 'MissingParameter',
      ...options,
    });
    this.name = 'ParameterMissing';
  }
}

/** An entity referenced by id that does not exist (or was deleted). */
export class EntityNotFound extends ClientError {
  constructor(message: string, options: GraphErrorOptions = {}) {
    super(StatusCodes.EntityNotFound, message, options);
    this.name = 'EntityNotFound';
  }
}

/** A write that violates a uniqueness, existence, key or type constraint. */
export class ConstraintValidationFailed extends ClientError {
  constructor(message: string, options: GraphErrorOptions = {}) {
    super(StatusCodes.ConstraintValidationFailed, message, options);
    this.name = 'ConstraintValidationFailed';
  }
}

/** `CALL some.unknown()`. */
export class ProcedureNotFound extends ClientError {
  constructor(name: string, options: GraphErrorOptions = {}) {
    super(StatusCodes.ProcedureNotFound, `There is no procedure with the name \`${name}\` registered for this database instance.`, options);
    this.name = 'ProcedureNotFound';
  }
}

/** Unknown database name. */
export class DatabaseNotFound extends ClientError {
  constructor(name: string, options: GraphErrorOptions = {}) {
    super(StatusCodes.DatabaseNotFound, `Database does not exist. Database name: '${name}'.`, options);
    this.name = 'DatabaseNotFound';
  }
}

/** Missing or wrong credentials. */
export class Unauthorized extends ClientError {
  constructor(message = 'The client is unauthorized due to authentication failure.', options: GraphErrorOptions = {}) {
    super(StatusCodes.Unauthorized, message, options);
    this.name = 'Unauthorized';
  }
}

/** Authenticated but not permitted. */
export class Forbidden extends ClientError {
  constructor(message: string, options: GraphErrorOptions = {}) {
    super(StatusCodes.Forbidden, message, options);
    this.name = 'Forbidden';
  }
}

/** A concurrent write touched the same data; the driver should retry. */
export class WriteConflict extends TransientError {
  constructor(message = 'Write conflict: the data was changed by a concurrent transaction; retry.', options: GraphErrorOptions = {}) {
    super(StatusCodes.DeadlockDetected, message, options);
    this.name = 'WriteConflict';
  }
}

/** The transaction ran past its timeout. */
export class TransactionTimedOut extends ClientError {
  constructor(
    message = 'The transaction has been terminated. Retry your operation in a new transaction, and you should see a successful result. The transaction has not completed within the specified timeout (dbms.transaction.timeout).',
    options: GraphErrorOptions = {},
  ) {
    super(StatusCodes.TransactionTimedOut, message, options);
    this.name = 'TransactionTimedOut';
  }
}

/** An internal invariant failed: a bug, reported as Neo.DatabaseError.General.UnknownError. */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new DatabaseError(StatusCodes.UnknownError, `Invariant violation: ${message}`);
}
