/**
 * The Neo4j status codes graphdb reports, as Neo4j's status-code list ("List of legacy server
 * error codes", Neo4j Status Codes v5, errors/all-errors) spells and classifies them: each is
 * listed there under the section of its middle segment (Client errors, Transient errors,
 * Database errors). test/errors/status-codes.test.ts checks the engine's table against it.
 */
export const NEO4J_STATUS_CODES: readonly string[] = [
  'Neo.ClientError.ChangeDataCapture.InvalidIdentifier',
  'Neo.ClientError.Cluster.NotALeader',
  'Neo.ClientError.Database.DatabaseNotFound',
  'Neo.ClientError.Database.ExistingAliasFound',
  'Neo.ClientError.Database.ExistingDatabaseFound',
  'Neo.ClientError.Database.IllegalAliasChain',
  'Neo.ClientError.General.ForbiddenOnReadOnlyDatabase',
  'Neo.ClientError.General.InvalidArguments',
  'Neo.ClientError.Procedure.ProcedureCallFailed',
  'Neo.ClientError.Procedure.ProcedureNotFound',
  'Neo.ClientError.Request.Invalid',
  'Neo.ClientError.Request.InvalidFormat',
  'Neo.ClientError.Schema.ConstraintNotFound',
  'Neo.ClientError.Schema.ConstraintValidationFailed',
  'Neo.ClientError.Schema.ConstraintWithNameAlreadyExists',
  'Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists',
  'Neo.ClientError.Schema.IndexAlreadyExists',
  'Neo.ClientError.Schema.IndexNotFound',
  'Neo.ClientError.Schema.IndexWithNameAlreadyExists',
  'Neo.ClientError.Security.AuthenticationRateLimit',
  'Neo.ClientError.Security.CredentialsExpired',
  'Neo.ClientError.Security.Forbidden',
  'Neo.ClientError.Security.TokenExpired',
  'Neo.ClientError.Security.Unauthorized',
  'Neo.ClientError.Statement.AccessMode',
  'Neo.ClientError.Statement.ArgumentError',
  'Neo.ClientError.Statement.ArithmeticError',
  'Neo.ClientError.Statement.EntityNotFound',
  'Neo.ClientError.Statement.ExternalResourceFailed',
  'Neo.ClientError.Statement.NotSystemDatabaseError',
  'Neo.ClientError.Statement.ParameterMissing',
  'Neo.ClientError.Statement.PropertyNotFound',
  'Neo.ClientError.Statement.SemanticError',
  'Neo.ClientError.Statement.SyntaxError',
  'Neo.ClientError.Statement.TypeError',
  'Neo.ClientError.Statement.UnsupportedOperationError',
  'Neo.ClientError.Transaction.ForbiddenDueToTransactionType',
  'Neo.ClientError.Transaction.InvalidBookmark',
  'Neo.ClientError.Transaction.LockClientStopped',
  'Neo.ClientError.Transaction.Terminated',
  'Neo.ClientError.Transaction.TransactionNotFound',
  'Neo.ClientError.Transaction.TransactionTimedOut',
  'Neo.DatabaseError.General.StorageDamageDetected',
  'Neo.DatabaseError.General.UnknownError',
  'Neo.DatabaseError.Schema.ConstraintCreationFailed',
  'Neo.DatabaseError.Schema.ConstraintDropFailed',
  'Neo.DatabaseError.Schema.IndexDropFailed',
  'Neo.DatabaseError.Transaction.TransactionCommitFailed',
  'Neo.DatabaseError.Transaction.TransactionLogError',
  'Neo.TransientError.Cluster.ReplicationFailure',
  'Neo.TransientError.General.DatabaseUnavailable',
  'Neo.TransientError.General.MemoryPoolOutOfMemoryError',
  'Neo.TransientError.General.OutOfMemoryError',
  'Neo.TransientError.Transaction.DeadlockDetected',
  'Neo.TransientError.Transaction.LockAcquisitionTimeout',
  'Neo.TransientError.Transaction.Outdated',
];

/**
 * Codes graphdb reports that the legacy list does not name, each with why it is used.
 */
export const GRAPHDB_EXTENSION_CODES: ReadonlyMap<string, string> = new Map([
  [
    'Neo.TransientError.Request.ResourceExhaustion',
    "Neo4j's Query API answers a server over its request limits with it; graphdb does the same for its per-database query and result limits.",
  ],
  [
    'Neo.ClientError.Database.DatabaseLimitReached',
    "graphdb's per-database node, relationship and storage limits (docs/aliases-limits.md): the client's write goes past a configured quota, so it is a client error, not Neo4j's DatabaseError of the same title (too many databases).",
  ],
]);
