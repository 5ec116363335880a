/**
 * apoc.util: validation (the failure @neo4j/graphql turns into Forbidden), hashes, compression, sleep.
 */
import { createHash } from 'node:crypto';
import { deflateRawSync, gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';
import type { CypherValue } from '../../../values/types.js';
import { PAUSE } from '../../runtime/row.js';
import { apocFailure, fn, illegalArgument, proc } from './define.js';
import { javaFormat, javaText } from './format.js';
import { cfgString, listArg, mapArg } from './values.js';
import { valueText } from '../../../values/to-string.js';

function hash(algorithm: string, values: CypherValue): string {
  return createHash(algorithm)
    .update(
      listArg(values)
        .map((v) => (v === null ? '' : javaText(v)))
        .join(''),
    )
    .digest('hex');
}

const hashFunction = (name: string, algorithm: string, label: string) =>
  fn(
    `apoc.util.${name}(values :: LIST<ANY>) :: STRING`,
    `Returns the ${label} checksum of the concatenation of all \`STRING\` values in the given \`LIST<ANY>\`.`,
    ([v]) => hash(algorithm, v!),
  );

function compression(config: ReadonlyMap<string, CypherValue>): string {
  return (cfgString(config, 'compression', 'GZIP') ?? 'GZIP').toUpperCase();
}

function unsupportedCompression(kind: string): never {
  throw illegalArgument(`Compression type ${kind} is not available on this server (supported: GZIP, DEFLATE, NONE)`);
}

/** The apoc.util procedures and functions. */
export const utilEntries = [
  proc(
    'apoc.util.validate(predicate :: BOOLEAN, message :: STRING, params :: LIST<ANY>) :: VOID',
    'READ',
    'If the given predicate is true an exception is thrown.',
    function* ([predicate, message, params]) {
      if (predicate === true) throw apocFailure(javaFormat(valueText(message ?? ''), listArg(params ?? null)));
    },
  ),
  fn(
    'apoc.util.validatePredicate(predicate :: BOOLEAN, message :: STRING, params :: LIST<ANY>) :: BOOLEAN',
    'If the given predicate is true an exception is thrown, otherwise it returns true (for use inside `WHERE` subclauses).',
    ([predicate, message, params]) => {
      if (predicate === true) throw apocFailure(javaFormat(valueText(message ?? ''), listArg(params ?? null)));
      return true;
    },
  ),
  proc(
    'apoc.util.sleep(duration :: INTEGER) :: VOID',
    'READ',
    'Causes the currently running Cypher to sleep for the given duration of milliseconds (the transaction termination is honored).',
    function* ([duration], c) {
      const until = performance.now() + Number(duration ?? 0n);
      while (performance.now() < until) {
        c.exec.scheduler.checkAlive();
        yield PAUSE;
      }
    },
  ),
  hashFunction('md5', 'md5', 'MD5'),
  hashFunction('sha1', 'sha1', 'SHA1'),
  hashFunction('sha256', 'sha256', 'SHA256'),
  hashFunction('sha384', 'sha384', 'SHA384'),
  hashFunction('sha512', 'sha512', 'SHA512'),
  fn('apoc.util.compress(data :: STRING, config = {} :: MAP) :: BYTEARRAY', 'Zips the given `STRING`.', ([data, config]) => {
    if (data === null) return null;
    const bytes = Buffer.from(valueText(data), 'utf8');
    const kind = compression(mapArg(config));
    if (kind === 'GZIP') return new Uint8Array(gzipSync(bytes));
    if (kind === 'DEFLATE') return new Uint8Array(deflateRawSync(bytes));
    if (kind === 'NONE') return new Uint8Array(bytes);
    return unsupportedCompression(kind);
  }),
  fn('apoc.util.decompress(data :: BYTEARRAY, config = {} :: MAP) :: STRING', 'Unzips the given byte array.', ([data, config]) => {
    if (data === null) return null;
    if (!(data instanceof Uint8Array)) throw illegalArgument('Expected a byte array');
    const kind = compression(mapArg(config));
    if (kind === 'GZIP') return gunzipSync(data).toString('utf8');
    if (kind === 'DEFLATE') return inflateRawSync(data).toString('utf8');
    if (kind === 'NONE') return Buffer.from(data).toString('utf8');
    return unsupportedCompression(kind);
  }),
];
