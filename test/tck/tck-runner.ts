/**
 * Runs TCK scenarios in-process against one shared GraphDB, wiping the graph between
 * scenarios (faster than a fresh database each time).
 */
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, GraphError } from '../../src/engine/index.js';
import { Node, Relationship } from '../../src/engine/values/types.js';
import { cypherToString } from '../../src/engine/values/index.js';
import { tableProcedure } from '../../src/engine/cypher/runtime/table-procedures.js';
import { namedGraphScript } from './features.js';
import type { TckScenario, TckStep } from './features.js';
import { compareTable } from './tck-compare.js';
import { parseTckValue } from './tck-values.js';
import type { TckValue } from './tck-values.js';
import { sideEffects, snapshotOf } from './tck-side-effects.js';
import type { GraphSnapshot } from './tck-side-effects.js';
import { storeOf } from '../../src/engine/engine-internals.js';

/** Outcome of one scenario. */
export interface ScenarioOutcome {
  readonly passed: boolean;
  readonly reason?: string;
}

/** Converts a parsed TCK value to an engine value (parameters, procedure tables). */
export function toCypher(value: TckValue): CypherValue {
  switch (value.k) {
    case 'null':
      return null;
    case 'bool':
    case 'int':
    case 'float':
    case 'string':
      return value.v;
    case 'list':
      return value.items.map(toCypher);
    case 'map':
      return new Map([...value.entries].map(([k, v]) => [k, toCypher(v)]));
    default:
      throw new Error(`TCK value ${value.k} cannot be a parameter`);
  }
}

interface Outcome {
  columns: readonly string[];
  rows: (readonly CypherValue[])[];
  error: GraphError | Error | null;
  compileTime: boolean;
}

const ERROR_CODES: Record<string, readonly string[]> = {
  SyntaxError: ['Statement.SyntaxError', 'Statement.SemanticError'],
  SemanticError: ['Statement.SemanticError', 'Statement.SyntaxError'],
  TypeError: ['Statement.TypeError'],
  ArgumentError: ['Statement.ArgumentError'],
  ArithmeticError: ['Statement.ArithmeticError'],
  EntityNotFound: ['Statement.EntityNotFound'],
  ConstraintVerificationFailed: ['Schema.ConstraintValidationFailed'],
  ParameterMissing: ['Statement.ParameterMissing'],
  ProcedureError: ['Procedure.ProcedureNotFound', 'Procedure.ProcedureCallFailed', 'Statement.SyntaxError'],
};

/** A TCK executor bound to one engine. */
export class TckRunner {
  private readonly registered: string[] = [];

  private constructor(readonly db: GraphDB) {}

  static async create(): Promise<TckRunner> {
    return new TckRunner(await GraphDB.open());
  }

  async close(): Promise<void> {
    await this.db.close();
  }

  /** Empties the graph, schema and test procedures. */
  async reset(): Promise<void> {
    for (const name of this.registered.splice(0)) this.db.unregisterProcedure(name);
    const session = this.db.session();
    await (await session.run('MATCH (n) DETACH DELETE n')).discard();
    const reader = storeOf(this.db).beginRead();
    const constraints = reader.constraints().map((c) => c.name);
    const indexes = reader
      .indexes()
      .filter((i) => i.owningConstraint === null && i.type !== 'LOOKUP')
      .map((i) => i.name);
    reader.close();
    for (const name of constraints) await (await session.run(`DROP CONSTRAINT \`${name}\``)).discard();
    for (const name of indexes) await (await session.run(`DROP INDEX \`${name}\``)).discard();
  }

  /** The whole graph as the TCK's side-effect snapshot. */
  snapshot(): GraphSnapshot {
    const reader = storeOf(this.db).beginRead();
    try {
      const nodes: Node[] = [];
      for (const id of reader.allNodeIds()) {
        const n = reader.getNode(id);
        if (n) nodes.push(new Node(n.id, '', n.labels, n.properties));
      }
      const rels: Relationship[] = [];
      for (const h of reader.allRelationships()) {
        const r = reader.getRelationship(h.id);
        if (r) rels.push(new Relationship(r.id, '', r.type, r.startId, r.endId, '', '', r.properties));
      }
      return snapshotOf(nodes, rels);
    } finally {
      reader.close();
    }
  }

  private async execute(query: string, parameters: Map<string, CypherValue>): Promise<Outcome> {
    const session = this.db.session();
    let result;
    try {
      result = await session.run(query, parameters);
    } catch (error) {
      return { columns: [], rows: [], error: error as Error, compileTime: true };
    }
    try {
      const { records } = await result.pull(-1);
      return { columns: result.keys, rows: [...records], error: null, compileTime: false };
    } catch (error) {
      return { columns: result.keys, rows: [], error: error as Error, compileTime: false };
    }
  }

  private registerProcedure(signature: string, table: readonly (readonly string[])[]): void {
    const [header = [], ...rows] = table;
    const definition = tableProcedure(
      signature,
      header,
      rows.map((row) => row.map((cell) => toCypher(parseTckValue(cell)))),
    );
    this.db.registerProcedure(definition);
    this.registered.push(definition.name);
  }

  /** Runs one scenario from a wiped graph. */
  async run(scenario: TckScenario): Promise<ScenarioOutcome> {
    await this.reset();
    let parameters = new Map<string, CypherValue>();
    let outcome: Outcome | null = null;
    let before: GraphSnapshot | null = null;
    let after: GraphSnapshot | null = null;
    for (const step of scenario.steps) {
      const failure = await this.step(step, {
        parameters,
        setParameters: (p) => (parameters = p),
        outcome: () => outcome,
        runQuery: async (query) => {
          before = this.snapshot();
          outcome = await this.execute(query, parameters);
          after = this.snapshot();
        },
        runControl: async (query) => {
          outcome = await this.execute(query, parameters);
        },
        effects: () => (before && after ? sideEffects(before, after) : new Map()),
      });
      if (failure !== null) return { passed: false, reason: failure };
    }
    const last = outcome as Outcome | null;
    if (last?.error && !scenario.steps.some((s) => s.kind === 'expectError')) {
      return { passed: false, reason: `unexpected error: ${last.error.message}` };
    }
    return { passed: true };
  }

  private async step(
    step: TckStep,
    env: {
      parameters: Map<string, CypherValue>;
      setParameters: (p: Map<string, CypherValue>) => void;
      outcome: () => Outcome | null;
      runQuery: (q: string) => Promise<void>;
      runControl: (q: string) => Promise<void>;
      effects: () => Map<string, number>;
    },
  ): Promise<string | null> {
    switch (step.kind) {
      case 'emptyGraph':
      case 'anyGraph':
        return null;
      case 'namedGraph':
      case 'setupQuery': {
        const query = step.kind === 'namedGraph' ? namedGraphScript(step.name) : step.query;
        const result = await this.execute(query, new Map());
        return result.error ? `setup failed: ${result.error.message}` : null;
      }
      case 'parameters':
        env.setParameters(new Map([...step.parameters].map(([k, v]) => [k, toCypher(parseTckValue(v))])));
        return null;
      case 'procedure':
        this.registerProcedure(step.signature, step.table);
        return null;
      case 'query':
        await env.runQuery(step.query);
        return null;
      case 'controlQuery':
        await env.runControl(step.query);
        return null;
      case 'expectEmpty':
      case 'expectRows': {
        const outcome = env.outcome();
        if (!outcome) return 'no query ran';
        if (outcome.error) return `error: ${outcome.error.message}`;
        if (step.kind === 'expectEmpty') return outcome.rows.length === 0 ? null : `${outcome.rows.length} rows, expected none`;
        const comparison = compareTable(step.columns, step.rows, outcome.columns, outcome.rows, step.ordered, {
          ignoreListOrder: step.ignoreListOrder,
          formatScalar: (v) => cypherToString(v),
        });
        return comparison.ok ? null : (comparison.reason ?? 'mismatch');
      }
      case 'expectError': {
        const outcome = env.outcome();
        if (!outcome?.error) return `expected ${step.errorType}, got success`;
        const code = (outcome.error as GraphError).code ?? '';
        const accepted = ERROR_CODES[step.errorType] ?? [];
        if (!accepted.some((c) => code.endsWith(c))) return `expected ${step.errorType}, got ${code || outcome.error.message}`;
        if (step.phase === 'compile time' && !outcome.compileTime) return 'error raised at runtime, expected compile time';
        const detail = (outcome.error as GraphError).detail;
        if (detail && step.detail && step.detail !== '*' && detail !== step.detail) return `detail ${detail}, expected ${step.detail}`;
        return null;
      }
      case 'sideEffects': {
        const actual = env.effects();
        const expected = step.effects;
        const keys = new Set([...actual.keys(), ...[...expected].filter(([, v]) => v !== 0).map(([k]) => k)]);
        for (const key of keys) {
          if ((actual.get(key) ?? 0) !== (expected.get(key) ?? 0)) {
            return `side effects ${JSON.stringify([...actual])}, expected ${JSON.stringify([...expected])}`;
          }
        }
        return null;
      }
    }
  }
}
