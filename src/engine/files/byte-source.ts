/**
 * What every resource a query reads is seen as: a source of byte chunks, synchronous for files,
 * asynchronous for network resources; and the two Neo4j errors of external resources.
 */
import { StatusCodes, GraphError, graphError } from '../errors/index.js';

/** Returned by `ByteSource.read` while an asynchronous read is in flight: await `pending`. */
export const SOURCE_WAIT: unique symbol = Symbol('SOURCE_WAIT');

/** Bytes of a file or URL, read chunk by chunk (never the whole resource at once). */
export interface ByteSource {
  /** The next chunk, null at the end, SOURCE_WAIT while a network read is in flight. */
  read(): Buffer | null | typeof SOURCE_WAIT;
  /** Settles when the in-flight read is done (null when nothing is in flight). */
  readonly pending: Promise<void> | null;
  /** Releases the file descriptor or aborts the request. */
  close(): void;
}

/** An ExternalResourceFailed error with Neo4j's `Cannot load from URL` prefix. */
export function cannotLoad(url: string, reason: string, cause?: unknown): GraphError {
  return graphError(StatusCodes.ExternalResourceFailed, `Cannot load from URL '${url}': ${reason}`, cause === undefined ? {} : { cause });
}

/** Neo4j's error when a resource cannot be opened or read. */
export function couldNotLoad(url: string, cause?: unknown): GraphError {
  return graphError(
    StatusCodes.ExternalResourceFailed,
    `Couldn't load the external resource at: ${url}`,
    cause === undefined ? {} : { cause },
  );
}
