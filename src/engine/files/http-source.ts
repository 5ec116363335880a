/**
 * An allowlisted HTTP(S) resource read chunk by chunk: one network read in flight at a time, so
 * a statement never holds more than one chunk it has not parsed. Redirects are followed by hand
 * (at most MAX_REDIRECTS), each target checked against the allowlist again.
 */
import { GraphError } from '../errors/index.js';
import { SOURCE_WAIT, cannotLoad, couldNotLoad } from './byte-source.js';
import type { ByteSource } from './byte-source.js';

const MAX_REDIRECTS = 5;

/** A streaming HTTP(S) body. */
export class HttpSource implements ByteSource {
  pending: Promise<void> | null = null;
  private readonly abort = new AbortController();
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private readonly chunks: Buffer[] = [];
  private ended = false;
  private failure: GraphError | null = null;

  /**
   * @param url an allowlisted http(s) URL
   * @param checkRedirect throws when a redirect target is not allowed
   */
  constructor(
    private readonly url: string,
    private readonly checkRedirect: (url: string) => void,
  ) {}

  read(): Buffer | null | typeof SOURCE_WAIT {
    if (this.failure !== null) throw this.failure;
    const chunk = this.chunks.shift();
    if (chunk !== undefined) return chunk;
    if (this.ended) return null;
    this.pending ??= this.fetchNext().then(
      () => void (this.pending = null),
      (error: unknown) => {
        this.failure = error instanceof GraphError ? error : couldNotLoad(this.url, error);
        this.pending = null;
      },
    );
    return SOURCE_WAIT;
  }

  private async fetchNext(): Promise<void> {
    this.reader ??= await this.open();
    const next = await this.reader.read();
    if (next.done) this.ended = true;
    else if (next.value.byteLength > 0) this.chunks.push(Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength));
  }

  private async open(): Promise<ReadableStreamDefaultReader<Uint8Array>> {
    let target = this.url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await fetch(target, { redirect: 'manual', signal: this.abort.signal });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        const next = new URL(location, target);
        if (next.protocol !== new URL(target).protocol) throw cannotLoad(this.url, `redirect to another protocol refused (${next.href})`);
        this.checkRedirect(next.href);
        target = next.href;
        continue;
      }
      if (!response.ok || response.body === null) {
        await response.body?.cancel();
        throw couldNotLoad(this.url, new Error(`HTTP ${response.status}`));
      }
      return response.body.getReader();
    }
    throw cannotLoad(this.url, `more than ${MAX_REDIRECTS} redirects`);
  }

  close(): void {
    this.ended = true;
    this.chunks.length = 0;
    this.abort.abort();
    this.reader?.cancel().catch(() => undefined);
  }
}
