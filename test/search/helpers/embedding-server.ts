/**
 * A deterministic `local_server` (Ollama-style `POST /api/embed`) embedding provider for search
 * tests: bag-of-words vectors over a fixed vocabulary, served on 127.0.0.1 with port 0.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Counts of `vocabulary` words (other words ignored) plus a small constant last component. */
export function bagOfWords(vocabulary: readonly string[], dimensions: number): (text: string) => number[] {
  return (text) => {
    const vector = new Array<number>(dimensions).fill(0);
    vector[dimensions - 1] = 0.01;
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      const index = vocabulary.indexOf(word);
      if (index >= 0) vector[index] += 1;
    }
    return vector;
  };
}

/** A running embedding server. */
export interface EmbeddingServer {
  /** `http://127.0.0.1:<port>`, for `embeddings.url`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts an embedding server answering with `embed`; `observe` sees each request's texts. */
export async function startEmbeddingServer(
  embed: (text: string) => number[],
  observe: (input: readonly string[], request: IncomingMessage) => void = () => {},
): Promise<EmbeddingServer> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/api/embed') {
        res.writeHead(404).end();
        return;
      }
      const { input } = JSON.parse(body) as { input: string[] };
      observe(input, req);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ model: 'bow', embeddings: input.map(embed) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
