/**
 * The APOC coverage table of docs/apoc.md, generated from the registries against the list of
 * APOC Core names (docs/apoc-core.txt): each name is implemented (procedure, function or both,
 * with its mode) or missing with the reason. test/apoc/coverage.test.ts fails when the page is
 * stale; `UPDATE_APOC_DOC=1 node test/run.mjs coverage` rewrites it.
 */
import type { FunctionRegistry } from '../../functions/registry.js';
import type { ProcedureRegistry } from '../registry.js';

/** Why a name of APOC Core is not offered, by name prefix. */
export const NOT_OFFERED: readonly (readonly [string, string])[] = [
  ['apoc.export.arrow', 'Apache Arrow needs the Arrow library, which this server does not bundle'],
  ['apoc.load.arrow', 'Apache Arrow needs the Arrow library, which this server does not bundle'],
  ['apoc.import.', 'not yet (apoc.import.json and apoc.import.graphml are offered)'],
  ['apoc.load.', 'not yet'],
  ['apoc.trigger.', 'not yet: triggers need before/after-commit hooks on the commit path'],
  ['apoc.example.movies', 'not yet: the movie graph data set is not shipped'],
];

function reason(name: string): string {
  return NOT_OFFERED.find(([prefix]) => name.startsWith(prefix))?.[1] ?? 'not yet';
}

/** The names of APOC Core from the list text (one name a line, `#` comments). */
export function apocCoreNames(listText: string): string[] {
  return listText
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('apoc.'));
}

/** The markdown of docs/apoc.md. */
export function apocCoverageMarkdown(names: readonly string[], procedures: ProcedureRegistry, functions: FunctionRegistry): string {
  const rows = names.map((name) => {
    const p = procedures.lookup(name);
    const f = functions.lookup(name);
    const kinds = [p ? `procedure (${p.mode})` : null, f ? (f.kind === 'aggregate' ? 'aggregation function' : 'function') : null].filter(
      (k) => k !== null,
    );
    return { name, implemented: kinds.length > 0, text: kinds.length > 0 ? kinds.join(', ') : `missing: ${reason(name)}` };
  });
  const done = rows.filter((r) => r.implemented).length;
  const percent = ((done / names.length) * 100).toFixed(1);
  const byNamespace = new Map<string, { done: number; total: number }>();
  for (const r of rows) {
    const ns = r.name.split('.').slice(0, 2).join('.');
    const e = byNamespace.get(ns) ?? { done: 0, total: 0 };
    byNamespace.set(ns, e);
    e.total++;
    if (r.implemented) e.done++;
  }
  return [
    '# APOC Core',
    '',
    'graphdb ships the procedures and functions of APOC Core, registered like the built-in ones: `SHOW PROCEDURES` and',
    '`SHOW FUNCTIONS` list them with their signature (defaults included), description and mode; a READ user cannot run a',
    'WRITE procedure; they behave the same in auto-commit statements and explicit transactions. Failures come back as',
    'Neo4j reports them (`Neo.ClientError.Procedure.ProcedureCallFailed`,',
    '`Failed to invoke procedure `name`: Caused by: java.lang.RuntimeException: <message>`), which @neo4j/graphql turns into',
    '`Forbidden` for its `@authorization` rules.',
    '',
    'Notes on semantics:',
    '',
    '- Statements given to `apoc.cypher.*`, `apoc.when`/`apoc.case`, `apoc.do.*` and `apoc.periodic.*` run inside the calling',
    "  statement's transaction; `params` are both `$name` parameters and variables (APOC's `WITH $name AS name`).",
    '- `apoc.periodic.iterate` and `apoc.periodic.commit` commit after every batch in an auto-commit statement; a failing',
    '  batch is rolled back alone and reported (`errorMessages`, `failedBatches`, `failedParams`). In an explicit transaction',
    '  the batches commit with the transaction.',
    "- `apoc.periodic.submit`/`repeat`/`countdown` run each execution as its own auto-commit statement on the engine's",
    '  scheduler; jobs are kept in memory and cancelled when the engine closes.',
    '- This engine runs one writer per database at a time: the `apoc.lock.*` procedures take that write lock, which is held',
    '  until the transaction ends.',
    '- `apoc.spatial.geocode*` refuse with a clear error: geocoding needs an external service and the server makes no',
    '  requests to outside services. `apoc.algo.aStar*` search with a zero heuristic (the optimal path, as Dijkstra).',
    '- `apoc.export.*` stream their output (`{stream: true}`, no file name). Writing export files would need',
    "  `apoc.export.file.enabled`, which this server does not offer: a file name is refused with APOC's message.",
    '- `apoc.load.json`/`jsonArray`/`jsonParams` read allowlisted http(s) URLs (`dbms.security.load_url_allowlist`) through',
    "  the engine's confined opener, or given bytes. Reading `file:` URLs would need `apoc.import.file.enabled`, which this",
    "  server does not offer: refused with APOC's message. `jsonParams` sends no custom headers or payloads (refused).",
    '- `apoc.hashing.fingerprint*` are MD5 checksums of a canonical form of the value: equal entities give equal',
    "  checksums; the digests are not byte-compatible with APOC's.",
    '',
    `## Coverage: ${done} of ${names.length} names (${percent} %)`,
    '',
    'Generated from the registries against [apoc-core.txt](apoc-core.txt) (the names of APOC Core 5.x); kept current by',
    '`test/apoc/coverage.test.ts`.',
    '',
    '| namespace | implemented |',
    '|---|---|',
    ...[...byNamespace].map(([ns, e]) => `| \`${ns}\` | ${e.done} / ${e.total} |`),
    '',
    '| name | status |',
    '|---|---|',
    ...rows.map((r) => `| \`${r.name}\` | ${r.text} |`),
    '',
  ].join('\n');
}
