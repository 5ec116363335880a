/**
 * On-disk form of a vector collection (`persist_search_indexes`): slots (vectors, owners, live
 * flags) and the ANN index. A file whose magic or format version differs is ignored, and the
 * caller rebuilds from storage, as docs/search.md says for incompatible persisted indexes.
 *
 * Layout: "GDBV" | u32 format version | u32 header length | header JSON | owners (i64 x slots) |
 * live flags (u8 x slots) | vectors (f32 x slots x d) | label table (i32 x entries) | faiss bytes.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { AnnIndex, type AnnKind } from './ann-index.js';
import { SlotStore } from './slot-store.js';
import type { VectorCollection } from './vector-collection.js';

/** Bumped whenever the layout or the meaning of a field changes. */
export const VECTOR_FORMAT_VERSION = 1;
const MAGIC = 'GDBV';

interface Header {
  dimensions: number;
  similarity: string;
  slots: number;
  ann: { kind: AnnKind; entries: number; candidateCount: number; trainedOn: number; faissBytes: number } | null;
}

/** Writes a collection to `path` atomically. */
export function saveCollection(collection: VectorCollection, path: string): void {
  const { store, ann } = collection.snapshot();
  const slots = store.slotCount;
  const serializedAnn = ann?.serialize() ?? null;
  const header: Header = {
    dimensions: collection.dimensions,
    similarity: collection.similarity,
    slots,
    ann:
      ann === null || serializedAnn === null
        ? null
        : {
            kind: ann.kind,
            entries: ann.size,
            candidateCount: ann.candidateCount,
            trainedOn: ann.trainedOn,
            faissBytes: serializedAnn.faiss.length,
          },
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const prefix = Buffer.alloc(12);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(VECTOR_FORMAT_VERSION, 4);
  prefix.writeUInt32LE(headerBytes.length, 8);
  const owners = Buffer.alloc(slots * 8);
  const alive = Buffer.alloc(slots);
  for (let slot = 0; slot < slots; slot++) {
    owners.writeBigInt64LE(store.ownerOf(slot), slot * 8);
    alive[slot] = store.isAlive(slot) ? 1 : 0;
  }
  const vectors = Buffer.from(store.raw.buffer, store.raw.byteOffset, slots * store.dimensions * 4);
  const parts: Uint8Array[] = [prefix, headerBytes, owners, alive, Buffer.from(vectors)];
  if (serializedAnn !== null)
    parts.push(Buffer.from(serializedAnn.labelToSlot.buffer, 0, serializedAnn.labelToSlot.length * 4), serializedAnn.faiss);
  writeFileSync(`${path}.tmp`, Buffer.concat(parts));
  renameSync(`${path}.tmp`, path);
}

/**
 * Loads `path` into `collection` when compatible (magic, version, dimensions, similarity);
 * returns false (leaving the collection untouched) otherwise.
 */
export function loadCollection(collection: VectorCollection, path: string): boolean {
  if (!existsSync(path)) return false;
  const bytes = readFileSync(path);
  if (bytes.length < 12 || bytes.subarray(0, 4).toString('latin1') !== MAGIC) return false;
  if (bytes.readUInt32LE(4) !== VECTOR_FORMAT_VERSION) return false;
  const headerLength = bytes.readUInt32LE(8);
  let offset = 12 + headerLength;
  const header = JSON.parse(bytes.subarray(12, offset).toString('utf8')) as Header;
  if (header.dimensions !== collection.dimensions || header.similarity !== collection.similarity) return false;
  const d = header.dimensions;
  const store = new SlotStore(d, Math.max(1024, header.slots));
  const ownersAt = offset;
  const aliveAt = ownersAt + header.slots * 8;
  const vectorsAt = aliveAt + header.slots;
  const start = bytes.byteOffset + vectorsAt;
  const floats = new Float32Array(bytes.buffer.slice(start, start + header.slots * d * 4));
  const live: number[] = [];
  for (let slot = 0; slot < header.slots; slot++) {
    const vector = floats.subarray(slot * d, (slot + 1) * d);
    const owner = bytes.readBigInt64LE(ownersAt + slot * 8);
    store.put(owner, vector);
    if (bytes[aliveAt + slot] === 1) live.push(slot);
    else store.kill(owner);
  }
  // A slot's owner may have been re-put later; mark the recorded live slots alive again in order.
  for (const slot of live) store.revive(slot);
  offset = vectorsAt + header.slots * d * 4;
  let ann: AnnIndex | null = null;
  if (header.ann !== null) {
    const labels = new Int32Array(header.ann.entries);
    for (let i = 0; i < labels.length; i++) labels[i] = bytes.readInt32LE(offset + i * 4);
    offset += labels.length * 4;
    const faissBytes = Buffer.from(bytes.subarray(offset, offset + header.ann.faissBytes));
    ann = AnnIndex.deserialize(header.ann.kind, faissBytes, labels, header.ann.candidateCount, header.ann.trainedOn, d);
  }
  collection.restore(store, ann);
  return true;
}
