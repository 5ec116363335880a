/**
 * The one place where a query reaches files or URLs on the server's behalf: LOAD CSV, and the
 * APOC load/import/export procedures through `resolveImportFile` / `openSource`.
 *
 * - `file:` URLs resolve inside the import directory only, as Neo4j's `server.directories.import`
 *   does: `file:///x.csv` is `<import>/x.csv`. `..` segments (encoded or not) and symbolic links
 *   that lead outside are refused after resolving the real path.
 * - `dbms.security.allow_csv_import_from_file_urls=false` refuses every `file:` URL.
 * - `http:`/`https:` URLs are fetched only when they start with an entry of
 *   `dbms.security.load_url_allowlist` (empty by default: none), redirects included.
 * - Before anything is opened, the principal's LOAD privilege is asked (`authorizeLoad`).
 *
 * Errors use Neo4j's code `Neo.ClientError.Statement.ExternalResourceFailed` and its texts.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { SOURCE_WAIT, cannotLoad, couldNotLoad } from './byte-source.js';
import type { ByteSource } from './byte-source.js';
import { HttpSource } from './http-source.js';

export { SOURCE_WAIT, cannotLoad, couldNotLoad, type ByteSource };

/** What the import directory and URL rules are. */
export interface FileAccessSettings {
  /** Absolute import directory (`server.directories.import`). */
  readonly importDir: string;
  /** `dbms.security.allow_csv_import_from_file_urls` (default true). */
  readonly allowFileUrls: boolean;
  /** `dbms.security.load_url_allowlist`: URL prefixes that may be fetched (default none). */
  readonly urlAllowlist: readonly string[];
  /** `dbms.import.csv.buffer_size`: longest CSV record in bytes (default 2 MiB). */
  readonly csvBufferSize?: number;
}

/** Whether a resolved file will be read or written (export procedures write). */
export type FileMode = 'read' | 'write';

/** The LOAD privilege check of the principal running the statement (throws Forbidden). */
export type LoadAuthorizer = (url: string) => void;

/**
 * Size of one read from a file. Each chunk is parsed in one synchronous step (csv-parse takes a
 * few µs per record), so a chunk must stay well inside a statement's 8 ms time slice: 64 KiB
 * (~6,000 short records) held the event loop for 100+ ms on a loaded machine, 8 KiB does not.
 */
const CHUNK_BYTES = 8 * 1024;

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Reads a regular file chunk by chunk with synchronous reads of CHUNK_BYTES. */
class FileSource implements ByteSource {
  readonly pending = null;
  private fd: number | null;

  constructor(fd: number) {
    this.fd = fd;
  }

  read(): Buffer | null {
    if (this.fd === null) return null;
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const n = readSync(this.fd, buffer, 0, CHUNK_BYTES, null);
    if (n === 0) {
      this.close();
      return null;
    }
    return n === CHUNK_BYTES ? buffer : buffer.subarray(0, n);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** File and URL access of one engine, optionally bound to a principal's LOAD privilege. */
export class ImportFiles {
  private readonly realImportDir: string;

  constructor(
    readonly settings: FileAccessSettings,
    private readonly authorizeLoad: LoadAuthorizer | null = null,
    realImportDir?: string,
  ) {
    if (realImportDir === undefined) {
      mkdirSync(settings.importDir, { recursive: true });
      this.realImportDir = realpathSync(settings.importDir);
    } else this.realImportDir = realImportDir;
  }

  /** The same rules, checking `authorize` (the principal's LOAD privilege) before each access. */
  forPrincipal(authorize: LoadAuthorizer | null): ImportFiles {
    return new ImportFiles(this.settings, authorize, this.realImportDir);
  }

  /** Parses `url`, refusing what is not a URL (Neo4j: `Invalid URL`). */
  private parse(url: string): URL {
    if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url)) throw cannotLoad(url, `Invalid URL '${url}': no protocol: ${url}`);
    try {
      return new URL(url);
    } catch (error) {
      throw cannotLoad(url, `Invalid URL '${url}'`, error);
    }
  }

  /**
   * The real path a `file:` URL stands for inside the import directory, after the LOAD privilege
   * check. For `write`, the file may not exist yet; its directory must. Throws
   * ExternalResourceFailed for anything outside, disabled or unreadable.
   */
  resolveImportFile(url: string, mode: FileMode): string {
    const parsed = this.parse(url);
    if (parsed.protocol !== 'file:') throw cannotLoad(url, `only file URLs can be ${mode === 'read' ? 'read' : 'written'} here`);
    this.authorizeLoad?.(url);
    return this.resolveFile(url, parsed, mode);
  }

  private resolveFile(url: string, parsed: URL, mode: FileMode): string {
    if (!this.settings.allowFileUrls)
      throw cannotLoad(url, "configuration property 'dbms.security.allow_csv_import_from_file_urls' is false");
    if (parsed.host !== '') throw cannotLoad(url, "file URL may not contain an authority section (i.e. it should be 'file:///')");
    if (parsed.search !== '' || parsed.hash !== '') throw cannotLoad(url, 'file URL may not contain a query component');
    let path: string;
    try {
      path = decodeURIComponent(parsed.pathname);
    } catch (error) {
      throw cannotLoad(url, `Invalid URL '${url}'`, error);
    }
    if (path.includes('\0')) throw cannotLoad(url, `Invalid URL '${url}'`);
    const candidate = resolve(this.realImportDir, `.${sep}${path}`);
    if (!isInside(this.realImportDir, candidate)) throw cannotLoad(url, 'file URL points outside configured import directory');
    let real: string;
    try {
      real = mode === 'read' ? realpathSync(candidate) : this.realTarget(candidate);
    } catch (error) {
      throw couldNotLoad(url, error);
    }
    if (!isInside(this.realImportDir, real)) throw cannotLoad(url, 'file URL points outside configured import directory');
    return real;
  }

  /** The real path of a file to be written: its directory resolved, an existing link followed. */
  private realTarget(candidate: string): string {
    try {
      return realpathSync(candidate);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return resolve(realpathSync(dirname(candidate)), relative(dirname(candidate), candidate));
    }
  }

  /**
   * Opens `url` for streaming reads: a regular file inside the import directory, or an
   * allowlisted HTTP(S) URL. The LOAD privilege is checked first.
   */
  openSource(url: string): ByteSource {
    const parsed = this.parse(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
      this.authorizeLoad?.(url);
      this.checkAllowlisted(url, parsed);
      return new HttpSource(url, (next) => this.checkAllowlisted(next, new URL(next)));
    }
    if (parsed.protocol !== 'file:') throw cannotLoad(url, `unsupported protocol ${parsed.protocol.slice(0, -1)}`);
    this.authorizeLoad?.(url);
    const path = this.resolveFile(url, parsed, 'read');
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      throw couldNotLoad(url, error);
    }
    if (!fstatSync(fd).isFile()) {
      closeSync(fd);
      throw cannotLoad(url, 'not a regular file');
    }
    return new FileSource(fd);
  }

  /** Throws unless `url` starts with an entry of the allowlist (compared after normalising). */
  private checkAllowlisted(url: string, parsed: URL): void {
    const href = parsed.href;
    const allowed = this.settings.urlAllowlist.some((entry) => {
      let prefix: URL;
      try {
        prefix = new URL(entry);
      } catch {
        return false;
      }
      return prefix.origin === parsed.origin && href.startsWith(prefix.href);
    });
    if (!allowed) {
      throw cannotLoad(url, "the URL is not allowed by the configuration property 'dbms.security.load_url_allowlist'");
    }
  }
}
