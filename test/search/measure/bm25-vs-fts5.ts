/**
 * Measurement behind the BM25 engine choice (run by hand, not part of `npm test`):
 *   node --import tsx test/search/measure/bm25-vs-fts5.ts [docs=100000]
 * Builds the same Zipf-distributed corpus in our in-memory index and in SQLite FTS5 (porter
 * tokenizer), then times OR and AND top-10 queries and compares the top-10 ids.
 */
import Database from 'better-sqlite3';
import { analyze } from '../../../src/engine/search/text/analyzer.js';
import { createTextIndex, type TextIndex } from '../../../src/engine/search/text/text-index.js';
import { parseTextQuery } from '../../../src/engine/search/text/query-parser.js';
import { seededRandom } from '../helpers/vectors.js';

const docs = Number(process.argv[2] ?? 100_000);
const random = seededRandom(1);
const vocabulary = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}x`);
const harmonic = vocabulary.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
const cumulative: number[] = [];
vocabulary.reduce((sum, _, i) => (cumulative[i] = sum + 1 / (i + 1) / harmonic), 0);
function word(): string {
  const r = random();
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo];
}
const texts = Array.from({ length: docs }, () => Array.from({ length: 8 + Math.floor(random() * 24) }, word).join(' '));
const queries = Array.from({ length: 200 }, (_, i) => [vocabulary[10 + (i % 50)], vocabulary[200 + ((i * 7) % 500)]]);

function time<T>(run: () => T): [T, number] {
  const start = performance.now();
  const value = run();
  return [value, performance.now() - start];
}

const [, analyzeMs] = time(() => texts.forEach((text) => analyze(text)));
const engines: Record<string, TextIndex> = { v2: createTextIndex('v2'), v1: createTextIndex('v1') };
const buildMs: Record<string, number> = {};
for (const [name, index] of Object.entries(engines)) {
  buildMs[name] = time(() => texts.forEach((text, i) => index.upsert(BigInt(i + 1), text)))[1];
}
const db = new Database(':memory:');
db.exec("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = 'porter unicode61')");
const insert = db.prepare('INSERT INTO docs(rowid, body) VALUES (?, ?)');
const [, ftsBuild] = time(() => db.transaction(() => texts.forEach((text, i) => insert.run(i + 1, text)))());
const ftsQuery = db.prepare('SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 10');

function run(engine: string, operator: 'OR' | 'AND'): void {
  const ours = engines[engine];
  const [oursTop, oursMs] = time(() =>
    queries.map(([a, b]) => ours.search(parseTextQuery(`${a} ${operator} ${b}`), 10).map((h) => Number(h.nodeId))),
  );
  const [ftsTop, ftsMs] = time(() =>
    queries.map(([a, b]) => (ftsQuery.all(`${a} ${operator} ${b}`) as { rowid: number }[]).map((r) => r.rowid)),
  );
  let overlap = 0;
  oursTop.forEach((ids, q) => (overlap += ids.filter((id) => ftsTop[q].includes(id)).length / Math.max(1, ids.length)));
  console.log(
    `${engine} ${operator}: ours ${(oursMs / queries.length).toFixed(3)} ms/q, FTS5 ${(ftsMs / queries.length).toFixed(3)} ms/q, top-10 overlap ${(overlap / queries.length).toFixed(3)}`,
  );
}

const rate = (ms: number) => (docs / (ms / 1000)).toFixed(0);
console.log(
  `${docs} docs: analyze only ${rate(analyzeMs)} docs/s; build v1 ${rate(buildMs.v1)}, v2 ${rate(buildMs.v2)}, FTS5 ${rate(ftsBuild)} docs/s`,
);
for (const engine of ['v1', 'v2']) for (const operator of ['OR', 'AND'] as const) run(engine, operator);
console.log(`heap used ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
