/**
 * Export to neo4j-admin style CSV: `nodes.csv` (`:ID`, `:LABEL`, one typed column per property
 * key) and `relationships.csv` (`:START_ID`, `:END_ID`, `:TYPE`, typed columns). A first pass
 * over the snapshot picks each key's column type; a key whose values have different types, or
 * values CSV cannot express (empty lists, lists of lists), is written as `string` and reported
 * in `lossyKeys`, as are string lists with an element containing the array delimiter or empty
 * (neo4j-admin arrays have no escaping). Use JSON Lines for an exact copy.
 */
import type { ReadTransaction } from '../storage/index.js';
import type { CypherMap, CypherValue } from '../values/types.js';
import { formatLiteral } from '../values/index.js';
import { quoteCsv } from './csv-records.js';
import { csvText, csvTypeOf } from './csv-values.js';
import type { ExportCounts } from './jsonl.js';
import type { TextOutput } from './output.js';

/** Result of a CSV export. */
export interface CsvExportResult extends ExportCounts {
  /** Keys written as strings because their values had mixed or unsupported types. */
  readonly lossyKeys: readonly string[];
}

interface ColumnPlan {
  readonly key: string;
  type: string;
  lossy: boolean;
}

function splitsOnDelimiter(value: CypherValue, arrayDelimiter: string): boolean {
  return Array.isArray(value) && value.some((x) => typeof x === 'string' && (x.includes(arrayDelimiter) || x === ''));
}

function planColumns(propertiesOf: Iterable<CypherMap>, arrayDelimiter: string): { plans: ColumnPlan[]; damaged: Set<string> } {
  const plans = new Map<string, ColumnPlan>();
  const damaged = new Set<string>();
  for (const properties of propertiesOf) {
    for (const [key, value] of properties) {
      const type = csvTypeOf(value);
      if (splitsOnDelimiter(value, arrayDelimiter)) damaged.add(key);
      const plan = plans.get(key);
      if (plan === undefined) plans.set(key, { key, type: type ?? 'string', lossy: type === null });
      else if (!plan.lossy && plan.type !== type) {
        plan.type = 'string';
        plan.lossy = true;
      }
    }
  }
  return { plans: [...plans.values()], damaged };
}

function* nodeProperties(reader: ReadTransaction): Iterable<CypherMap> {
  for (const id of reader.allNodeIds()) {
    const node = reader.getNode(id);
    if (node !== null) yield node.properties;
  }
}

function* relationshipProperties(reader: ReadTransaction): Iterable<CypherMap> {
  for (const handle of reader.allRelationships()) {
    const rel = reader.getRelationship(handle.id);
    if (rel !== null) yield rel.properties;
  }
}

function header(fixed: readonly string[], plans: readonly ColumnPlan[], delimiter: string): string {
  return [...fixed, ...plans.map((p) => quoteCsv(`${p.key}:${p.type}`, delimiter))].join(delimiter) + '\n';
}

function cells(properties: CypherMap, plans: readonly ColumnPlan[], delimiter: string, arrayDelimiter: string): string[] {
  return plans.map((plan) => {
    const value = properties.get(plan.key);
    if (value === undefined || value === null) return '';
    return quoteCsv(plan.lossy ? (typeof value === 'string' ? value : formatLiteral(value)) : csvText(value, arrayDelimiter), delimiter);
  });
}

/** Writes nodes and relationships of the snapshot to two CSV outputs. */
export async function exportCsv(
  reader: ReadTransaction,
  nodesOut: TextOutput,
  relationshipsOut: TextOutput,
  options: { delimiter?: string; arrayDelimiter?: string } = {},
): Promise<CsvExportResult> {
  const delimiter = options.delimiter ?? ',';
  const arrayDelimiter = options.arrayDelimiter ?? ';';
  const nodePlan = planColumns(nodeProperties(reader), arrayDelimiter);
  const relPlan = planColumns(relationshipProperties(reader), arrayDelimiter);
  const nodePlans = nodePlan.plans;
  const relPlans = relPlan.plans;
  const counts = { nodes: 0, relationships: 0 };
  await nodesOut.write(header([':ID', ':LABEL'], nodePlans, delimiter));
  for (const id of reader.allNodeIds()) {
    const node = reader.getNode(id);
    if (node === null) continue;
    const labels = quoteCsv(node.labels.join(arrayDelimiter), delimiter);
    await nodesOut.write(
      [id.toString(), node.labels.length === 0 ? '' : labels, ...cells(node.properties, nodePlans, delimiter, arrayDelimiter)].join(
        delimiter,
      ) + '\n',
    );
    counts.nodes++;
  }
  await relationshipsOut.write(header([':START_ID', ':END_ID', ':TYPE'], relPlans, delimiter));
  for (const handle of reader.allRelationships()) {
    const rel = reader.getRelationship(handle.id);
    if (rel === null) continue;
    const fixed = [rel.startId.toString(), rel.endId.toString(), quoteCsv(rel.type, delimiter)];
    await relationshipsOut.write([...fixed, ...cells(rel.properties, relPlans, delimiter, arrayDelimiter)].join(delimiter) + '\n');
    counts.relationships++;
  }
  const lossyKeys = [
    ...new Set([...[...nodePlans, ...relPlans].filter((p) => p.lossy).map((p) => p.key), ...nodePlan.damaged, ...relPlan.damaged]),
  ];
  return { ...counts, lossyKeys };
}
