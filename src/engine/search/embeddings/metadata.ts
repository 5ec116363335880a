/**
 * Embedding bookkeeping kept outside node properties: per node, the hash of the text that was
 * embedded, the chunk count, model and dimensions. Held in memory and, with a directory, saved as
 * `embedding-metadata.json` (format-versioned) there.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Bookkeeping of one embedded node. */
export interface EmbeddingRecord {
  readonly textHash: string;
  readonly chunks: number;
  readonly model: string;
  readonly dimensions: number;
  readonly embeddedAt: number;
}

const FORMAT_VERSION = 1;
const FILE_NAME = 'embedding-metadata.json';

/** Hash identifying what was embedded (text and model). */
export function embeddingHash(text: string, model: string): string {
  return createHash('sha256').update(model).update('\0').update(text).digest('hex').slice(0, 32);
}

/** Per-node embedding bookkeeping. */
export class EmbeddingMetadata {
  private readonly records = new Map<bigint, EmbeddingRecord>();

  constructor(private readonly directory?: string) {
    if (directory !== undefined) this.load();
  }

  get size(): number {
    return this.records.size;
  }

  get(nodeId: bigint): EmbeddingRecord | undefined {
    return this.records.get(nodeId);
  }

  set(nodeId: bigint, record: EmbeddingRecord): void {
    this.records.set(nodeId, record);
  }

  delete(nodeId: bigint): boolean {
    return this.records.delete(nodeId);
  }

  nodeIds(): IterableIterator<bigint> {
    return this.records.keys();
  }

  /** Writes the file atomically (no-op without a directory). */
  save(): void {
    if (this.directory === undefined) return;
    mkdirSync(this.directory, { recursive: true });
    const entries = [...this.records].map(([id, record]) => [id.toString(), record]);
    const path = join(this.directory, FILE_NAME);
    writeFileSync(`${path}.tmp`, JSON.stringify({ formatVersion: FORMAT_VERSION, entries }));
    renameSync(`${path}.tmp`, path);
  }

  private load(): void {
    const path = join(this.directory!, FILE_NAME);
    if (!existsSync(path)) return;
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as { formatVersion: number; entries: [string, EmbeddingRecord][] };
      if (parsed.formatVersion !== FORMAT_VERSION) return;
      for (const [id, record] of parsed.entries) this.records.set(BigInt(id), record);
    } catch {
      this.records.clear();
    }
  }
}
