/**
 * Child process of M1: opens a fresh embedded graphdb, imports the profile's graph, and prints the
 * resident set size as JSON. Run alone so the figure is graphdb's, not the harness's or the peers'.
 * Arguments: <dir> <persons> <relationships> <seed> <src|dist>.
 */
import { generateSocialGraph } from '../gen/social.js';
import { probeGraphdb, type EngineSource } from '../graphdb/probe.js';

const [dir, persons, rels, seed, source] = process.argv.slice(2);
const graphdb = await probeGraphdb((source ?? 'src') as EngineSource);
if (typeof graphdb.embedded === 'string') {
  console.log(JSON.stringify({ pending: graphdb.embedded }));
} else {
  const graph = generateSocialGraph(Number(seed), Number(persons), Number(rels));
  const baseline = process.memoryUsage().rss;
  const subject = await graphdb.embedded(dir);
  // The same import as G1 (the bulk loader from CSV written first), not the Cypher fallback.
  subject.prepareImport?.(graph);
  await subject.load(graph);
  await subject.countNodes?.();
  (globalThis as { gc?: () => void }).gc?.();
  const rss = process.memoryUsage().rss;
  await subject.close();
  console.log(JSON.stringify({ rssBytes: rss, baselineBytes: baseline }));
}
