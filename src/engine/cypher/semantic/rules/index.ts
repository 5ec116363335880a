import { AdminValueRule } from './admin-value-rule.js';
import { AggregationRule } from './aggregation-rule.js';
import { ClauseCompositionRule } from './clause-composition-rule.js';
import { CreateRelationshipRule } from './create-relationship-rule.js';
import { DeleteTargetRule } from './delete-target-rule.js';
import { ExpressionTypeRule } from './expression-type-rule.js';
import { FunctionCallRule } from './function-call-rule.js';
import { ParameterInPatternRule } from './parameter-in-pattern-rule.js';
import { PatternExpressionPlacementRule } from './pattern-expression-placement-rule.js';
import { PatternShapeRule } from './pattern-shape-rule.js';
import { ProcedureCallRule } from './procedure-call-rule.js';
import type { ValidationRule } from './rule.js';
import { SkipLimitRule } from './skip-limit-rule.js';
import { UpdateTargetRule } from './update-target-rule.js';

export type { ValidationRule } from './rule.js';

/**
 * The rules `analyze()` runs after binding, in one parallel traversal. Order only matters for
 * which error is reported first when several apply: structural rules come before type rules.
 */
export const specifiedRules: readonly ValidationRule[] = [
  ClauseCompositionRule,
  PatternExpressionPlacementRule,
  CreateRelationshipRule,
  PatternShapeRule,
  ParameterInPatternRule,
  ProcedureCallRule,
  FunctionCallRule,
  AggregationRule,
  SkipLimitRule,
  DeleteTargetRule,
  UpdateTargetRule,
  ExpressionTypeRule,
  AdminValueRule,
];

export {
  AdminValueRule,
  AggregationRule,
  ClauseCompositionRule,
  CreateRelationshipRule,
  DeleteTargetRule,
  ExpressionTypeRule,
  FunctionCallRule,
  ParameterInPatternRule,
  PatternExpressionPlacementRule,
  PatternShapeRule,
  ProcedureCallRule,
  SkipLimitRule,
  UpdateTargetRule,
};
