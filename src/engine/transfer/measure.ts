/**
 * Import-rate measurement for the bench harness: writes a synthetic graph (nodes with a label
 * and two properties, relationships with one property) as JSON Lines or CSV, imports it into a
 * fresh database through `importGraph` (the storage bulk loader) and reports nodes/s and
 * relationships/s of the two phases. The relationship phase runs from the first relationship row
 * to the commit: parsing, then (in the loader's `finish`) the ordered insert, the adjacency index
 * builds and the commit.
 *
 * ```ts
 * const r = await measureImportRate({ nodes: 1_000_000, relationships: 5_000_000, workDir, format: 'csv' });
 * // { nodes, relationships, nodesPerSecond, relationshipsPerSecond, totalMs, inputBytes }
 * ```
 */
import { createWriteStream, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GraphDB } from '../graphdb.js';
import { TextOutput } from './output.js';
import { importGraph } from './transfer.js';

/** Options of measureImportRate. */
export interface ImportRateOptions {
  readonly nodes: number;
  readonly relationships: number;
  /** Scratch directory (input files and the data directory are created inside). */
  readonly workDir: string;
  readonly format?: 'jsonl' | 'csv';
  /** Rows per commit (default 0: one transaction). */
  readonly batchSize?: number;
}

/** Figures of one measurement. */
export interface ImportRate {
  readonly nodes: number;
  readonly relationships: number;
  readonly nodesPerSecond: number;
  readonly relationshipsPerSecond: number;
  readonly totalMs: number;
  readonly inputBytes: number;
}

/** The i-th relationship's endpoints: a deterministic spread over the nodes. */
function endpoints(i: number, nodes: number): [number, number] {
  return [i % nodes, (i * 7919 + 13) % nodes];
}

async function writeInputs(options: ImportRateOptions, format: 'jsonl' | 'csv'): Promise<[string, string]> {
  const files: [string, string] = [join(options.workDir, `nodes.${format}`), join(options.workDir, `relationships.${format}`)];
  const [nodesOut, relsOut] = files.map((f) => new TextOutput(createWriteStream(f))) as [TextOutput, TextOutput];
  if (format === 'csv') await nodesOut.write(':ID,:LABEL,name:string,age:int\n');
  for (let i = 0; i < options.nodes; i++) {
    await nodesOut.write(
      format === 'csv'
        ? `${i},Person,p${i},${i % 90}\n`
        : `{"type":"node","id":"${i}","labels":["Person"],"properties":{"name":"p${i}","age":${i % 90}}}\n`,
    );
  }
  if (format === 'csv') await relsOut.write(':START_ID,:END_ID,:TYPE,weight:int\n');
  for (let i = 0; i < options.relationships; i++) {
    const [a, b] = endpoints(i, options.nodes);
    await relsOut.write(
      format === 'csv'
        ? `${a},${b},KNOWS,${i % 10}\n`
        : `{"type":"relationship","label":"KNOWS","start":{"id":"${a}"},"end":{"id":"${b}"},"properties":{"weight":${i % 10}}}\n`,
    );
  }
  await Promise.all([nodesOut.end(), relsOut.end()]);
  return files;
}

/** Generates the input, imports it and reports the rates. */
export async function measureImportRate(options: ImportRateOptions): Promise<ImportRate> {
  const format = options.format ?? 'jsonl';
  mkdirSync(options.workDir, { recursive: true });
  const [nodesFile, relsFile] = await writeInputs(options, format);
  const db = await GraphDB.open({ dataDir: join(options.workDir, 'data') });
  try {
    let nodePhaseMs: number | null = null;
    const summary = await importGraph(db, {
      format,
      batchSize: options.batchSize ?? 0,
      inputs: [
        { file: nodesFile, kind: 'nodes' },
        { file: relsFile, kind: 'relationships' },
      ],
      progressIntervalMs: 20,
      onProgress: (p) => {
        if (nodePhaseMs === null && p.relationships > 0) nodePhaseMs = p.elapsedMs;
      },
    });
    if (!summary.completed) throw new Error(`import failed: ${JSON.stringify(summary.errors.slice(0, 3))}`);
    const nodeMs = nodePhaseMs ?? summary.durationMs;
    const relMs = Math.max(1, summary.durationMs - nodeMs);
    return {
      nodes: summary.nodes,
      relationships: summary.relationships,
      nodesPerSecond: Math.round((summary.nodes / Math.max(1, nodeMs)) * 1000),
      relationshipsPerSecond: Math.round((summary.relationships / relMs) * 1000),
      totalMs: summary.durationMs,
      inputBytes: statSync(nodesFile).size + statSync(relsFile).size,
    };
  } finally {
    await db.close();
  }
}
