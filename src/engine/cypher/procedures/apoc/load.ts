/**
 * apoc.load.json / jsonArray / jsonParams: JSON documents from allowlisted http(s) URLs (read
 * through the engine's confined opener, `dbms.security.load_url_allowlist`) or from given bytes.
 * JSON text holding an array yields one row per element, JSON lines one row per line. Reading
 * `file:` URLs needs `apoc.import.file.enabled`, which this server does not offer: refused with
 * APOC's message.
 */
import { GraphError, StatusCodes } from '../../../errors/index.js';
import type { CypherValue } from '../../../values/types.js';
import { SOURCE_WAIT } from '../../../files/import-files.js';
import { PAUSE, type Signal } from '../../runtime/row.js';
import { apocFailure, proc, type ApocContext, type ProcedureRows } from './define.js';
import { jsonPath, parseJson } from './json.js';
import { cfgBoolean, mapArg } from './values.js';

const IMPORT_DISABLED = 'Import from files not enabled, please set apoc.import.file.enabled=true in your apoc.conf';

/** The whole text behind a URL (or given bytes), yielding while network reads are in flight. */
function* readText(c: ApocContext, source: CypherValue): Generator<Signal, string, undefined> {
  if (source instanceof Uint8Array) return Buffer.from(source).toString('utf8');
  const url = String(source ?? '');
  if (!/^https?:/i.test(url)) {
    if (/^file:/i.test(url) || !/^[a-z][a-z0-9+.-]*:/i.test(url)) throw apocFailure(IMPORT_DISABLED);
  }
  const bytes = c.exec.files.openSource(url);
  const chunks: Buffer[] = [];
  try {
    for (;;) {
      c.exec.scheduler.checkAlive();
      const chunk = bytes.read();
      if (chunk === SOURCE_WAIT) {
        c.exec.scheduler.waitFor(bytes.pending ?? Promise.resolve());
        yield PAUSE;
        if (c.exec.scheduler.waitPending) throw new GraphError(StatusCodes.ExternalResourceFailed, `apoc.load from '${url}' cannot run inside an expression (the URL is read asynchronously)`);
        continue;
      }
      if (chunk === null) return Buffer.concat(chunks).toString('utf8');
      chunks.push(chunk);
    }
  } finally {
    bytes.close();
  }
}

/** The JSON values of a text: the document, or one per line for JSON lines. */
function documents(text: string): CypherValue[] {
  try {
    return [parseJson(text)];
  } catch (error) {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    if (lines.length <= 1) throw error;
    return lines.map((l) => parseJson(l));
  }
}

function* loadRows(c: ApocContext, source: CypherValue, path: CypherValue, config: CypherValue, asArray: boolean): ProcedureRows {
  const cfg = mapArg(config);
  let text: string;
  try {
    text = yield* readText(c, source);
  } catch (error) {
    if (cfgBoolean(cfg, 'failOnError', true)) throw error;
    return;
  }
  for (const doc of documents(text)) {
    const value = jsonPath(doc, typeof path === 'string' && path !== '' ? path : null);
    if (asArray) {
      for (const item of Array.isArray(value) ? (value as CypherValue[]) : [value]) yield [item];
    } else if (Array.isArray(value)) {
      for (const item of value as CypherValue[]) yield [item instanceof Map ? item : new Map([['value', item]])];
    } else yield [value instanceof Map ? value : new Map([['value', value]])];
  }
}

/** The apoc.load JSON procedures. */
export const loadEntries = [
  proc("apoc.load.json(urlOrKeyOrBinary :: ANY, path = '' :: STRING, config = {} :: MAP) :: (value :: MAP)", 'READ', 'Imports JSON file as a stream of values if the given JSON file is a `LIST<ANY>`. If the given JSON file is a `MAP`, this procedure imports a single value instead.', ([source, path, config], c) =>
    loadRows(c, source!, path!, config!, false),
  ),
  proc("apoc.load.jsonArray(url :: STRING, path = '' :: STRING, config = {} :: MAP) :: (value :: ANY)", 'READ', 'Loads array from a JSON URL (e.g. web-API) to then import the given JSON file as a stream of values.', ([source, path, config], c) =>
    loadRows(c, source!, path!, config!, true),
  ),
  proc("apoc.load.jsonParams(urlOrKeyOrBinary :: ANY, headers :: MAP, payload :: STRING, path = '' :: STRING, config = {} :: MAP) :: (value :: MAP)", 'READ', 'Loads parameters from a JSON URL (e.g. web-API) as a stream of values if the given JSON file is a `LIST<ANY>`. If the given JSON file is a `MAP`, this procedure imports a single value instead.', ([source, headers, payload, path, config], c) => {
    if (mapArg(headers).size > 0 || (payload !== null && payload !== '')) throw apocFailure('Request headers and payloads are not sent by this server: apoc.load.jsonParams reads allowlisted URLs with plain GET requests only');
    return loadRows(c, source!, path!, config!, false);
  }),
];
