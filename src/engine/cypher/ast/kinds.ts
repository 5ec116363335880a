/**
 * The discriminator of every Cypher AST node (`node.kind`). String values, so a dumped AST reads
 * well and a switch over `Kind` is exhaustive under `strict`.
 */
export enum Kind {
  // Statements and queries
  Statement = 'Statement',
  CypherOption = 'CypherOption',
  SingleQuery = 'SingleQuery',
  Union = 'Union',

  // Reading, projecting and subquery clauses
  Use = 'Use',
  Match = 'Match',
  UsingHint = 'UsingHint',
  Unwind = 'Unwind',
  With = 'With',
  Return = 'Return',
  ProjectionBody = 'ProjectionBody',
  ProjectionItem = 'ProjectionItem',
  OrderBy = 'OrderBy',
  SortItem = 'SortItem',
  CallSubquery = 'CallSubquery',
  InTransactions = 'InTransactions',
  CallProcedure = 'CallProcedure',
  YieldItem = 'YieldItem',
  LoadCsv = 'LoadCsv',
  Finish = 'Finish',

  // Writing clauses
  Create = 'Create',
  Merge = 'Merge',
  MergeAction = 'MergeAction',
  Set = 'Set',
  SetProperty = 'SetProperty',
  SetVariable = 'SetVariable',
  SetLabels = 'SetLabels',
  Remove = 'Remove',
  RemoveProperty = 'RemoveProperty',
  RemoveLabels = 'RemoveLabels',
  Delete = 'Delete',
  Foreach = 'Foreach',

  // Patterns
  Pattern = 'Pattern',
  PatternPart = 'PatternPart',
  PathSelector = 'PathSelector',
  PathPattern = 'PathPattern',
  ShortestPath = 'ShortestPath',
  NodePattern = 'NodePattern',
  RelationshipPattern = 'RelationshipPattern',
  Range = 'Range',
  QuantifiedPath = 'QuantifiedPath',

  // Label expressions
  LabelName = 'LabelName',
  LabelWildcard = 'LabelWildcard',
  LabelNot = 'LabelNot',
  LabelAnd = 'LabelAnd',
  LabelOr = 'LabelOr',
  DynamicLabel = 'DynamicLabel',

  // Literals and atoms
  IntegerLiteral = 'IntegerLiteral',
  FloatLiteral = 'FloatLiteral',
  StringLiteral = 'StringLiteral',
  BooleanLiteral = 'BooleanLiteral',
  NullLiteral = 'NullLiteral',
  ListLiteral = 'ListLiteral',
  MapLiteral = 'MapLiteral',
  MapEntry = 'MapEntry',
  Parameter = 'Parameter',
  Variable = 'Variable',

  // Compound expressions
  PropertyAccess = 'PropertyAccess',
  Subscript = 'Subscript',
  Slice = 'Slice',
  FunctionCall = 'FunctionCall',
  CountStar = 'CountStar',
  BinaryOperation = 'BinaryOperation',
  UnaryOperation = 'UnaryOperation',
  IsNull = 'IsNull',
  TypePredicate = 'TypePredicate',
  LabelPredicate = 'LabelPredicate',
  Case = 'Case',
  CaseAlternative = 'CaseAlternative',
  ListComprehension = 'ListComprehension',
  PatternComprehension = 'PatternComprehension',
  ListPredicate = 'ListPredicate',
  Reduce = 'Reduce',
  MapProjection = 'MapProjection',
  PropertySelector = 'PropertySelector',
  AllPropertiesSelector = 'AllPropertiesSelector',
  VariableSelector = 'VariableSelector',
  LiteralEntrySelector = 'LiteralEntrySelector',
  PatternExpression = 'PatternExpression',
  SubqueryPattern = 'SubqueryPattern',
  ExistsSubquery = 'ExistsSubquery',
  CountSubquery = 'CountSubquery',
  CollectSubquery = 'CollectSubquery',

  // Types (for `IS :: INTEGER` and property type constraints)
  SimpleType = 'SimpleType',
  ListType = 'ListType',
  UnionType = 'UnionType',

  // Schema commands
  CreateIndex = 'CreateIndex',
  DropIndex = 'DropIndex',
  CreateConstraint = 'CreateConstraint',
  DropConstraint = 'DropConstraint',
  Show = 'Show',

  // Administration commands
  CreateDatabase = 'CreateDatabase',
  DropDatabase = 'DropDatabase',
  AlterDatabase = 'AlterDatabase',
  DatabaseSetting = 'DatabaseSetting',
  StartDatabase = 'StartDatabase',
  StopDatabase = 'StopDatabase',
  CreateAlias = 'CreateAlias',
  DropAlias = 'DropAlias',
  AlterAlias = 'AlterAlias',
  SymbolicName = 'SymbolicName',

  // Security administration
  CreateUser = 'CreateUser',
  AlterUser = 'AlterUser',
  AlterCurrentUser = 'AlterCurrentUser',
  DropUser = 'DropUser',
  RenameUser = 'RenameUser',
  CreateRole = 'CreateRole',
  DropRole = 'DropRole',
  RenameRole = 'RenameRole',
  RoleMembership = 'RoleMembership',
  PrivilegeCommand = 'PrivilegeCommand',
}
