/**
 * The table of Neo4j status codes graphdb reports, as Neo4j's status-code list spells them
 * (test/errors/neo4j-status-codes.ts holds that list; test/errors/status-codes.test.ts checks
 * this table against it). Codes read `Neo.<Classification>.<Category>.<Title>`; the
 * classification is a contract: drivers retry any code whose classification is `TransientError`,
 * and the error class follows it (graph-error.ts).
 */
export const StatusCodes = {
  SyntaxError: 'Neo.ClientError.Statement.SyntaxError',
  SemanticError: 'Neo.ClientError.Statement.SemanticError',
  AccessMode: 'Neo.ClientError.Statement.AccessMode',
  TypeError: 'Neo.ClientError.Statement.TypeError',
  ArgumentError: 'Neo.ClientError.Statement.ArgumentError',
  InvalidChangeIdentifier: 'Neo.ClientError.ChangeDataCapture.InvalidIdentifier',
  ArithmeticError: 'Neo.ClientError.Statement.ArithmeticError',
  ParameterMissing: 'Neo.ClientError.Statement.ParameterMissing',
  EntityNotFound: 'Neo.ClientError.Statement.EntityNotFound',
  PropertyNotFound: 'Neo.ClientError.Statement.PropertyNotFound',
  NotSystemDatabaseError: 'Neo.ClientError.Statement.NotSystemDatabaseError',
  UnsupportedOperation: 'Neo.ClientError.Statement.UnsupportedOperationError',
  ExternalResourceFailed: 'Neo.ClientError.Statement.ExternalResourceFailed',
  ConstraintValidationFailed: 'Neo.ClientError.Schema.ConstraintValidationFailed',
  ConstraintAlreadyExists: 'Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists',
  ConstraintCreationFailed: 'Neo.DatabaseError.Schema.ConstraintCreationFailed',
  ConstraintDropFailed: 'Neo.DatabaseError.Schema.ConstraintDropFailed',
  IndexDropFailed: 'Neo.DatabaseError.Schema.IndexDropFailed',
  IndexAlreadyExists: 'Neo.ClientError.Schema.IndexAlreadyExists',
  IndexNotFound: 'Neo.ClientError.Schema.IndexNotFound',
  ConstraintNotFound: 'Neo.ClientError.Schema.ConstraintNotFound',
  ConstraintWithNameAlreadyExists: 'Neo.ClientError.Schema.ConstraintWithNameAlreadyExists',
  IndexWithNameAlreadyExists: 'Neo.ClientError.Schema.IndexWithNameAlreadyExists',
  ProcedureNotFound: 'Neo.ClientError.Procedure.ProcedureNotFound',
  ProcedureCallFailed: 'Neo.ClientError.Procedure.ProcedureCallFailed',
  DatabaseNotFound: 'Neo.ClientError.Database.DatabaseNotFound',
  NotALeader: 'Neo.ClientError.Cluster.NotALeader',
  /** A replicated commit the log refused or did not confirm (nothing acknowledged; retry). */
  ReplicationFailure: 'Neo.TransientError.Cluster.ReplicationFailure',
  DatabaseExists: 'Neo.ClientError.Database.ExistingDatabaseFound',
  /** A database that still has aliases (DROP DATABASE without CASCADE ALIASES). */
  ExistingAliasFound: 'Neo.ClientError.Database.ExistingAliasFound',
  /** An alias targeting another alias. */
  IllegalAliasChain: 'Neo.ClientError.Database.IllegalAliasChain',
  /** A write would take a database past its max_nodes / max_relationships / max_storage_bytes limit. */
  DatabaseLimitReached: 'Neo.ClientError.Database.DatabaseLimitReached',
  TransactionNotFound: 'Neo.ClientError.Transaction.TransactionNotFound',
  TransactionTimedOut: 'Neo.ClientError.Transaction.TransactionTimedOut',
  TransactionTerminated: 'Neo.ClientError.Transaction.Terminated',
  ForbiddenDueToTransactionType: 'Neo.ClientError.Transaction.ForbiddenDueToTransactionType',
  InvalidBookmark: 'Neo.ClientError.Transaction.InvalidBookmark',
  InvalidRequest: 'Neo.ClientError.Request.Invalid',
  InvalidFormat: 'Neo.ClientError.Request.InvalidFormat',
  Unauthorized: 'Neo.ClientError.Security.Unauthorized',
  Forbidden: 'Neo.ClientError.Security.Forbidden',
  AuthenticationRateLimit: 'Neo.ClientError.Security.AuthenticationRateLimit',
  TokenExpired: 'Neo.ClientError.Security.TokenExpired',
  CredentialsExpired: 'Neo.ClientError.Security.CredentialsExpired',
  InvalidArguments: 'Neo.ClientError.General.InvalidArguments',
  DeadlockDetected: 'Neo.TransientError.Transaction.DeadlockDetected',
  Outdated: 'Neo.TransientError.Transaction.Outdated',
  /** A lock wait of a transaction that ended meanwhile (a ClientError since Neo4j 5). */
  LockClientStopped: 'Neo.ClientError.Transaction.LockClientStopped',
  /** An entity lock was not granted within db.lock.acquisition.timeout. */
  LockAcquisitionTimeout: 'Neo.TransientError.Transaction.LockAcquisitionTimeout',
  ResourcePressure: 'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
  DatabaseUnavailable: 'Neo.TransientError.General.DatabaseUnavailable',
  /** A database's max_concurrent_queries limit is reached; retry later. */
  ResourceExhaustion: 'Neo.TransientError.Request.ResourceExhaustion',
  UnknownError: 'Neo.DatabaseError.General.UnknownError',
  StorageDamageDetected: 'Neo.DatabaseError.General.StorageDamageDetected',
  /** The storage could not write a transaction (disk full). */
  TransactionCommitFailed: 'Neo.DatabaseError.Transaction.TransactionCommitFailed',
  /** A storage I/O error. */
  TransactionLogError: 'Neo.DatabaseError.Transaction.TransactionLogError',
  /** The storage ran out of memory. */
  OutOfMemoryError: 'Neo.TransientError.General.OutOfMemoryError',
  /** A write to read-only storage. */
  ForbiddenOnReadOnlyDatabase: 'Neo.ClientError.General.ForbiddenOnReadOnlyDatabase',
  /** Delete of a node that still has relationships (Neo4j 5 code). */
  DeleteNodeWithRelationships: 'Neo.ClientError.Schema.ConstraintValidationFailed',
} as const;

/** One of the status code strings above. */
export type StatusCode = (typeof StatusCodes)[keyof typeof StatusCodes];

/** The classification part of a status code. */
export type Classification = 'ClientError' | 'ClientNotification' | 'TransientError' | 'DatabaseError';

/** Returns the classification (second segment) of a status code. */
export function classificationOf(code: string): Classification {
  return code.split('.')[1] as Classification;
}
