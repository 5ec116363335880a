/**
 * Marks what a statement reads and writes, from its AST, for the privilege check that runs
 * before execution. Every part of the statement is walked, so subqueries that the planner only
 * plans at run time (EXISTS/COUNT/COLLECT, pattern comprehensions, CALL subqueries) are covered:
 *
 * - every node and relationship pattern needs TRAVERSE on its labels/type (any element when
 *   unlabelled), its inline property map READ of those properties;
 * - `v.p` needs READ {p} on the elements `v` was matched as; returning, collecting or copying a
 *   whole entity needs READ {*}; a variable that did not come from a pattern (an alias, an
 *   UNWIND of collected entities) stands for every element the statement traverses;
 * - CREATE/MERGE need CREATE on each label/type plus SET PROPERTY for the properties written;
 *   SET/REMOVE need SET PROPERTY / SET LABEL / REMOVE LABEL; DELETE needs DELETE (DETACH also on
 *   relationships);
 * - procedures need EXECUTE, and their declared mode decides the rest (see `expandProcedures`);
 *   LOAD CSV needs LOAD; schema, database and DBMS commands their own privileges
 *   (access-commands.ts).
 */
import type { Expression, Variable } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { AstNode } from '../ast/nodes.js';
import type { NodePattern, RelationshipPattern } from '../ast/patterns.js';
import type { Statement } from '../ast/statements.js';
import { SKIP, childrenOf, visit, type Visitor } from '../ast/visitor.js';
import type { AccessRequirement, DeclaredMode, StatementAccess } from './access-types.js';
import {
  ALL_PROPERTY_FUNCTIONS,
  ANY_NODE,
  ANY_RELATIONSHIP,
  IDENTITY_FUNCTIONS,
  collectOrigins,
  segmentsOf,
  variableNames,
  writtenPatterns,
  type Origins,
} from './access-origins.js';
import { commandAccess } from './access-commands.js';

/** Collects requirements without duplicates. */
class Requirements {
  private readonly seen = new Set<string>();
  readonly list: AccessRequirement[] = [];

  add(requirement: AccessRequirement): void {
    const id = JSON.stringify(requirement);
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.list.push(requirement);
  }
}

/** Pass 2 helpers: reads of properties and of whole entities. */
function readProperty(out: Requirements, origins: Origins, name: string, property: string | null): void {
  for (const segment of origins.of(name)) out.add({ action: 'read', segment, property });
}

function patternReads(out: Requirements, pattern: NodePattern | RelationshipPattern): void {
  for (const segment of segmentsOf(pattern)) {
    out.add({ action: 'traverse', segment });
    if (pattern.properties?.kind === Kind.MapLiteral) {
      for (const entry of pattern.properties.entries) out.add({ action: 'read', segment, property: entry.key });
    } else if (pattern.properties !== null) {
      out.add({ action: 'read', segment, property: null });
    }
  }
}

/** Requirements of writing `pattern` (a CREATE, or the create side of a MERGE). */
function createWrites(out: Requirements, pattern: NodePattern | RelationshipPattern, bound: ReadonlySet<string>): void {
  const isNode = pattern.kind === Kind.NodePattern;
  const labels = isNode ? pattern.labels : pattern.types;
  if (isNode && pattern.variable !== null && labels === null && pattern.properties === null && bound.has(pattern.variable.name)) return;
  const segments = segmentsOf(pattern);
  for (const segment of segments) {
    if (segment.names === null || segment.names.length === 0) out.add({ action: 'create_element', segment });
    else for (const name of segment.names) out.add({ action: 'create_element', segment: { element: segment.element, names: [name] } });
    if (pattern.properties?.kind === Kind.MapLiteral) {
      for (const entry of pattern.properties.entries) out.add({ action: 'set_property', segment, property: entry.key });
    } else if (pattern.properties !== null) {
      out.add({ action: 'set_property', segment, property: null });
    }
  }
}

/** The variable and property a SET/REMOVE target names (`v.p`, `v[key]`); property null when dynamic. */
function setTarget(target: Expression): { name: string | null; property: string | null } {
  if (target.kind === Kind.PropertyAccess && target.object.kind === Kind.Variable)
    return { name: target.object.name, property: target.property };
  if (target.kind === Kind.Subscript && target.object.kind === Kind.Variable) return { name: target.object.name, property: null };
  return { name: null, property: null };
}

function setProperty(out: Requirements, origins: Origins, name: string | null, property: string | null): void {
  const segments = name === null ? [ANY_NODE, ANY_RELATIONSHIP] : origins.of(name);
  for (const segment of segments.length > 0 ? segments : [ANY_NODE, ANY_RELATIONSHIP])
    out.add({ action: 'set_property', segment, property });
}

/** Names bound by patterns outside CREATE clauses (nodes a CREATE refers to rather than makes). */
function boundOutsideCreate(statement: Statement): Set<string> {
  const bound = new Set<string>();
  const created = new Set<AstNode>();
  visit(statement, {
    enter(node) {
      if (node.kind === Kind.Create) for (const written of writtenPatterns(node.pattern)) created.add(written);
      if (created.has(node)) return undefined;
      if ((node.kind === Kind.NodePattern || node.kind === Kind.RelationshipPattern) && node.variable) bound.add(node.variable.name);
      if (node.kind === Kind.Unwind) bound.add(node.variable.name);
      if (node.kind === Kind.ProjectionItem && node.alias) bound.add(node.alias.name);
      if (node.kind === Kind.YieldItem) bound.add(node.alias?.name ?? node.field);
      return undefined;
    },
  });
  return bound;
}

/** Whole-entity reads: a variable used as a value (returned, collected, copied, compared as a map). */
function wholeReads(out: Requirements, origins: Origins, root: AstNode): void {
  const walk = (node: AstNode, parent: AstNode | null): void => {
    if (node.kind === Kind.Variable) {
      if (parent && origins.known(node.name) && isValuePosition(node, parent)) readProperty(out, origins, node.name, null);
      return;
    }
    if (node.kind === Kind.MapProjection) {
      for (const selector of node.selectors) {
        if (selector.kind === Kind.AllPropertiesSelector) readProperty(out, origins, node.variable.name, null);
        else if (selector.kind === Kind.PropertySelector) readProperty(out, origins, node.variable.name, selector.property);
      }
      for (const child of childrenOf(node)) if (child !== node.variable) walk(child, node);
      return;
    }
    if (node.kind === Kind.FunctionCall && ALL_PROPERTY_FUNCTIONS.has(node.name.toLowerCase())) {
      for (const arg of node.args) for (const name of variableNames(arg)) if (origins.known(name)) readProperty(out, origins, name, null);
    }
    for (const child of childrenOf(node)) walk(child, node);
  };
  walk(root, null);
}

/** True when a variable occurrence under `parent` exposes the entity's properties. */
function isValuePosition(variable: Variable, parent: AstNode): boolean {
  switch (parent.kind) {
    case Kind.ProjectionItem:
      return parent.expression === variable;
    case Kind.ListLiteral:
    case Kind.MapEntry:
    case Kind.CaseAlternative:
    case Kind.Case:
      return true;
    case Kind.FunctionCall:
      return !IDENTITY_FUNCTIONS.has(parent.name.toLowerCase()) || parent.namespace.length > 0;
    case Kind.SetVariable:
      return parent.value === variable;
    case Kind.SetProperty:
      return parent.value === variable;
    default:
      return false;
  }
}

/** Requirements of the clauses and expressions of a query (graph reads and writes, procedures, LOAD). */
function queryAccess(statement: Statement, out: Requirements): void {
  const origins = collectOrigins(statement);
  const bound = boundOutsideCreate(statement);
  const creating = new Set<AstNode>();
  const visitor: Visitor = {
    enter(node) {
      switch (node.kind) {
        case Kind.NodePattern:
        case Kind.RelationshipPattern:
          if (!creating.has(node)) patternReads(out, node);
          break;
        case Kind.PropertyAccess:
          if (node.object.kind === Kind.Variable) readProperty(out, origins, node.object.name, node.property);
          else for (const segment of origins.traversed.values()) out.add({ action: 'read', segment, property: node.property });
          break;
        case Kind.Subscript:
          if (node.object.kind === Kind.Variable && origins.known(node.object.name)) {
            readProperty(out, origins, node.object.name, node.index.kind === Kind.StringLiteral ? node.index.value : null);
          }
          break;
        case Kind.Create:
          for (const written of writtenPatterns(node.pattern)) {
            creating.add(written);
            createWrites(out, written, bound);
          }
          break;
        case Kind.Merge:
          for (const written of writtenPatterns(node.pattern)) createWrites(out, written, bound);
          break;
        case Kind.SetProperty: {
          const target = setTarget(node.target);
          setProperty(out, origins, target.name, target.property);
          visit(node.value, visitor);
          return SKIP;
        }
        case Kind.RemoveProperty: {
          const target = setTarget(node.target);
          setProperty(out, origins, target.name, target.property);
          return SKIP;
        }
        case Kind.SetVariable:
          setProperty(out, origins, node.variable.name, null);
          break;
        case Kind.SetLabels:
        case Kind.RemoveLabels: {
          const action = node.kind === Kind.SetLabels ? 'set_label' : 'remove_label';
          for (const label of node.labels) out.add({ action, label });
          if (node.dynamicLabels.length > 0) out.add({ action, label: null });
          break;
        }
        case Kind.Delete:
          for (const expression of node.expressions) {
            const names = variableNames(expression);
            const segments = names.length === 1 && origins.known(names[0]!) ? origins.of(names[0]!) : [ANY_NODE, ANY_RELATIONSHIP];
            for (const segment of segments) out.add({ action: 'delete_element', segment });
            if (node.detach) out.add({ action: 'delete_element', segment: ANY_RELATIONSHIP });
          }
          break;
        case Kind.CallProcedure:
          out.add({ action: 'execute', procedure: [...node.namespace, node.name].join('.') });
          break;
        case Kind.LoadCsv:
          out.add({ action: 'load', url: node.source.kind === Kind.StringLiteral ? node.source.value : null });
          break;
        default:
          break;
      }
      return undefined;
    },
  };
  visit(statement, visitor);
  wholeReads(out, origins, statement);
}

const cache = new WeakMap<Statement, StatementAccess>();

/** What `statement` reads and writes (cached per parsed statement). */
export function statementAccess(statement: Statement): StatementAccess {
  let access = cache.get(statement);
  if (access === undefined) {
    const body = statement.body;
    if (body.kind === Kind.SingleQuery || body.kind === Kind.Union) {
      const out = new Requirements();
      queryAccess(statement, out);
      access = { needsDatabaseAccess: true, requirements: out.list };
    } else {
      access = commandAccess(body);
    }
    cache.set(statement, access);
  }
  return access;
}

/** Every read of every element: what a READ-mode procedure may look at. */
const READ_ALL: readonly AccessRequirement[] = [ANY_NODE, ANY_RELATIONSHIP].flatMap((segment) => [
  { action: 'traverse', segment } as const,
  { action: 'read', segment, property: null } as const,
]);

/** Every write of every element: what a WRITE-mode procedure may do. */
const WRITE_ALL: readonly AccessRequirement[] = [
  ...[ANY_NODE, ANY_RELATIONSHIP].flatMap((segment) => [
    { action: 'create_element', segment } as const,
    { action: 'delete_element', segment } as const,
    { action: 'set_property', segment, property: null } as const,
  ]),
  { action: 'set_label', label: null },
  { action: 'remove_label', label: null },
];

/**
 * Adds what each called procedure's declared mode implies (the registry's `mode` is the source
 * of truth): READ reads every element, WRITE also writes any, SCHEMA manages indexes and
 * constraints, DBMS needs EXECUTE only.
 */
export function expandProcedures(
  access: StatementAccess,
  modeOf: (name: string) => DeclaredMode | undefined,
): readonly AccessRequirement[] {
  const out = [...access.requirements];
  for (const requirement of access.requirements) {
    if (requirement.action !== 'execute') continue;
    const mode = modeOf(requirement.procedure);
    if (mode === 'READ' || mode === 'WRITE') out.push(...READ_ALL);
    if (mode === 'WRITE') out.push(...WRITE_ALL);
    if (mode === 'SCHEMA') {
      out.push({ action: 'index', operation: 'create_index' }, { action: 'constraint', operation: 'create_constraint' });
    }
  }
  return out;
}
