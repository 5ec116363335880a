/**
 * Cypher script import. A script is run statement by statement (`cypher-script-run.ts`), except
 * a script of the export's shape (`cypher-script-shape.ts`), which is loaded through the bulk
 * loader (`import-sink.ts`, as JSON Lines and CSV are) with the same end result:
 *
 * - its temporary constraint statement runs as written; every `:param rows => [...]` batch of a
 *   node or relationship batch statement goes to one bulk load, without the temporary label and
 *   id property, because the script's cleanup statement removes them again; the id property
 *   still identifies nodes, through the load's id map, and stays unique (a duplicate fails);
 * - the cleanup statement commits the load; what follows (the constraint's `DROP`) runs as written.
 *
 * This holds only while the database has no `__GraphdbImport` node of its own when the import
 * starts. Anything else (another statement or command before the cleanup, a row that is not of
 * the statement's shape or not a property value, a relationship endpoint that no batch created,
 * a script without the cleanup) rolls the load back and the script runs statement by statement
 * from its start instead (the constraint statement has IF NOT EXISTS, so running it again is a
 * no-op); that run then gives Cypher's own result or error. Standard input cannot be read twice
 * and always runs statement by statement.
 */
import { GraphError } from '../errors/index.js';
import type { GraphDB } from '../graphdb.js';
import type { DatabaseStore } from '../storage/index.js';
import { assertStorableProperty } from '../storage/index.js';
import type { CypherValue } from '../values/types.js';
import { isList } from '../values/kinds.js';
import { ImportRowFailure, ImportSink, type ImportRowError } from './import-sink.js';
import { LineReader } from './line-reader.js';
import { withoutLeadingComments } from './statements.js';
import { CLEANUP_STATEMENT, CONSTRAINT_STATEMENT, ROWS_PARAM, TEMP_LABEL, batchShapeOf, type BatchShape } from './cypher-script-shape.js';
import { literalValue, parseParamCommand } from './cypher-params.js';
import { ScriptRunner, ScriptStepError, commandWord, scriptSteps, type ScriptCounters, type ScriptStep } from './cypher-script-run.js';

/** Outcome of a script import. */
export interface ScriptImportResult {
  readonly completed: boolean;
  readonly errors: readonly ImportRowError[];
  /** True when the script's data went through the bulk loader. */
  readonly bulk: boolean;
}

/** What a script import reads and where its progress goes. */
export interface ScriptImportInput {
  readonly db: GraphDB;
  readonly store: DatabaseStore;
  /** Replaced when the script is read a second time. */
  reader: LineReader;
  readonly displayName: string;
  readonly counters: ScriptCounters;
}

/** Imports one script (see the module comment); never throws for a failing statement: see `errors`. */
export async function importCypher(input: ScriptImportInput): Promise<ScriptImportResult> {
  if (input.reader.file !== '-' && (await noTemporaryNodes(input))) {
    const bulk = await importExported(input);
    if (bulk !== null) return bulk;
    input.reader = new LineReader(input.reader.file);
    Object.assign(input.counters, { statements: 0, nodes: 0, relationships: 0, properties: 0 });
  }
  const runner = new ScriptRunner(input.db, input.store.name, input.displayName, input.counters);
  return runSteps(runner, scriptSteps(input.reader));
}

/** Runs the remaining steps statement by statement. */
async function runSteps(runner: ScriptRunner, steps: AsyncGenerator<ScriptStep>, bulk = false): Promise<ScriptImportResult> {
  try {
    for await (const step of steps) await runner.step(step);
    await runner.finish();
    return { completed: true, errors: [], bulk };
  } catch (error) {
    await runner.abort();
    if (error instanceof ScriptStepError) return { completed: false, errors: [error.row], bulk };
    throw error;
  }
}

async function noTemporaryNodes(input: ScriptImportInput): Promise<boolean> {
  const session = input.db.session({ database: input.store.name });
  try {
    const { records } = await (await session.run(`MATCH (n:${TEMP_LABEL}) RETURN count(n) AS c`)).pull(-1);
    return records[0]?.[0] === 0n;
  } finally {
    await session.close();
  }
}

/** Signals that the script leaves the export's shape: the bulk load is rolled back. */
class NotExportShape extends Error {}

/** The bulk path; null when the script is not of the export's shape (nothing of it was kept). */
async function importExported(input: ScriptImportInput): Promise<ScriptImportResult | null> {
  const { db, store, displayName, counters } = input;
  const sink = new ImportSink(store, { onError: 'fail', batchSize: 0 });
  let started = false;
  let loaded = false;
  let rows: CypherValue | undefined;
  const steps = scriptSteps(input.reader);
  const runner = new ScriptRunner(db, store.name, displayName, counters);
  try {
    for await (const step of steps) {
      if (step.kind === 'command') {
        const word = commandWord(step.text);
        if (word === ':begin' || word === ':commit') continue;
        if (word !== ':param') throw new NotExportShape();
        const command = parseParamCommand(step.text);
        if (command.kind !== 'set' || command.name !== ROWS_PARAM) throw new NotExportShape();
        rows = literalValue(command.expression) ?? (await runner.evaluate(command.expression));
        runner.setParameter(ROWS_PARAM, rows);
        continue;
      }
      const code = withoutLeadingComments(step.text);
      if (code === CONSTRAINT_STATEMENT && !started) {
        await runner.step(step);
        continue;
      }
      if (code === CLEANUP_STATEMENT && started) {
        const summary = await sink.finish();
        loaded = true;
        counters.statements++;
        Object.assign(counters, { nodes: summary.nodes, relationships: summary.relationships, properties: summary.properties });
        return await runSteps(runner, steps, true);
      }
      const shape = batchShapeOf(code);
      if (shape === null || !isList(rows)) throw new NotExportShape();
      if (!started) await sink.start();
      started = true;
      await writeBatch(sink, shape, rows, { file: displayName, line: step.line });
      counters.statements++;
      counters.nodes = sink.nodes;
      counters.relationships = sink.relationships;
    }
    throw new NotExportShape();
  } catch (error) {
    sink.abort();
    await runner.abort();
    if (error instanceof NotExportShape || error instanceof ImportRowFailure) return null;
    if (error instanceof ScriptStepError) return { completed: false, errors: [error.row], bulk: true };
    // A value or constraint the bulk load refused before it committed: run statement by statement, for Cypher's own result and line.
    if (!loaded && error instanceof GraphError) return null;
    throw error;
  } finally {
    await steps.return(undefined);
  }
}

/** The properties of a row (`values[offset + i]` for `keys[i]`; null values are not set, as in CREATE). */
function propertiesOf(keys: readonly string[], values: readonly CypherValue[], offset: number): Map<string, CypherValue> {
  const properties = new Map<string, CypherValue>();
  for (let i = 0; i < keys.length; i++) {
    const value = values[offset + i]!;
    if (value === null) continue;
    try {
      assertStorableProperty(value);
    } catch {
      throw new NotExportShape();
    }
    properties.set(keys[i]!, value);
  }
  return properties;
}

/** Writes one batch of rows into the load. */
async function writeBatch(
  sink: ImportSink,
  shape: BatchShape,
  rows: readonly CypherValue[],
  origin: { file: string; line: number },
): Promise<void> {
  const width = shape.keys.length + (shape.kind === 'nodes' ? 1 : 2);
  for (const row of rows) {
    if (!isList(row) || row.length !== width || typeof row[0] !== 'bigint') throw new NotExportShape();
    let wait;
    if (shape.kind === 'nodes') {
      wait = sink.addNode(origin, '', String(row[0]), shape.labels, propertiesOf(shape.keys, row, 1));
    } else {
      if (typeof row[1] !== 'bigint') throw new NotExportShape();
      const properties = propertiesOf(shape.keys, row, 2);
      wait = sink.addRelationship(origin, shape.type, { idSpace: '', id: String(row[0]) }, { idSpace: '', id: String(row[1]) }, properties);
    }
    if (wait) await wait;
  }
}
