/**
 * Child process of A1: opens a fresh embedded graphdb in <dir>, creates <nodes> `:Item` nodes
 * (UNWIND batches), then times `apoc.periodic.iterate` setting a property on every node in batches
 * of <batch> (one transaction per batch) and, as the reference, the same work with
 * `CALL { } IN TRANSACTIONS OF <batch> ROWS`. Samples the resident set size every 50 ms while each
 * runs and prints one JSON line. Arguments: <dir> <nodes> <batch> <src|dist>.
 */
import { engineModule, type EngineSource } from '../graphdb/probe.js';

const [dir, nodesArg, batchArg, source] = process.argv.slice(2);
const nodes = Number(nodesArg);
const batch = Number(batchArg);
const url = engineModule((source ?? 'src') as EngineSource, 'engine/index');
if (url === null) {
  console.log(JSON.stringify({ pending: 'the engine entry point does not exist' }));
} else {
  const engine = (await import(url)) as {
    GraphDB: {
      open(o: { dataDir: string; search: false }): Promise<{
        session(): {
          run(q: string, p?: Record<string, unknown>): Promise<{ pull(n: number): Promise<{ records: unknown[][] }> }>;
          close(): Promise<void>;
        };
        close(): Promise<void>;
      }>;
    };
  };
  const db = await engine.GraphDB.open({ dataDir: dir, search: false });
  const session = db.session();
  const run = async (q: string, p?: Record<string, unknown>) => (await (await session.run(q, p)).pull(-1)).records;
  for (let start = 0; start < nodes; start += 100_000) {
    await run('UNWIND range($from, $to) AS i CREATE (:Item {i: i})', {
      from: BigInt(start),
      to: BigInt(Math.min(nodes, start + 100_000) - 1),
    });
  }
  (globalThis as { gc?: () => void }).gc?.();
  const timed = async (q: string): Promise<{ seconds: number; peakRss: number; baseRss: number; row: unknown[] }> => {
    (globalThis as { gc?: () => void }).gc?.();
    const baseRss = process.memoryUsage().rss;
    let peakRss = baseRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const started = performance.now();
    const rows = await run(q);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    return { seconds, peakRss, baseRss, row: rows[0] ?? [] };
  };
  const iterate = await timed(
    `CALL apoc.periodic.iterate('MATCH (n:Item) RETURN n', 'SET n.done = true', {batchSize: ${batch}}) YIELD batches, total, failedOperations RETURN batches, total, failedOperations`,
  );
  const reference = await timed(`MATCH (n:Item) CALL { WITH n SET n.ref = true } IN TRANSACTIONS OF ${batch} ROWS`);
  const check = await run('MATCH (n:Item) WHERE n.done AND n.ref RETURN count(n) AS c');
  await db.close();
  console.log(
    JSON.stringify({
      iterate: { ...iterate, row: iterate.row.map(String) },
      reference: { ...reference, row: [] },
      updated: String(check[0]?.[0]),
    }),
  );
}
