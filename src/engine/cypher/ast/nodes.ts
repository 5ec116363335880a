import type { AdminCommand, DatabaseSetting, SymbolicName } from './admin.js';
import type {
  Clause,
  InTransactions,
  MergeAction,
  OrderBy,
  ProjectionBody,
  ProjectionItem,
  RemoveItem,
  SetItem,
  SortItem,
  UsingHint,
  YieldItem,
} from './clauses.js';
import type { CaseAlternative, CypherTypeNode, Expression, MapEntry, MapProjectionSelector, SubqueryPattern } from './expressions.js';
import type { LabelExpression, PathPattern, PathSelector, Pattern, PatternPart, PathElement, Range } from './patterns.js';
import type { SchemaCommand } from './schema.js';
import type { CypherOption, Query, Statement } from './statements.js';

/** Any node of the Cypher AST. */
export type AstNode =
  | Statement
  | CypherOption
  | Query
  | Clause
  | UsingHint
  | ProjectionBody
  | ProjectionItem
  | OrderBy
  | SortItem
  | InTransactions
  | YieldItem
  | MergeAction
  | SetItem
  | RemoveItem
  | Pattern
  | PatternPart
  | PathSelector
  | PathPattern
  | PathElement
  | Range
  | LabelExpression
  | Expression
  | MapEntry
  | CaseAlternative
  | MapProjectionSelector
  | SubqueryPattern
  | CypherTypeNode
  | SchemaCommand
  | AdminCommand
  | DatabaseSetting
  | SymbolicName;
