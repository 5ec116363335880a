/**
 * Decoding only some properties of a property record (see value-codec.ts for the layout): one
 * pass over the record that decodes the wanted keys and skips the others without materializing
 * them. Scans that read one or two properties of every node use it instead of `decodeRecord`.
 */
import type { CypherValue } from '../../values/types.js';
import { ByteReader } from './byte-buffer.js';
import { decodeValue, skipValue } from './value-codec.js';

/**
 * Which keys to decode: the wanted property-key token ids, each mapped to its output slot.
 * Build once per scan, reuse for every record.
 */
export class KeySelection {
  /** Output slot of each token id (index = token id), -1 when not wanted. */
  private readonly slotOf: Int32Array;

  constructor(readonly keyIds: readonly (number | undefined)[]) {
    let max = -1;
    for (const id of keyIds) if (id !== undefined && id > max) max = id;
    this.slotOf = new Int32Array(max + 1).fill(-1);
    keyIds.forEach((id, slot) => {
      if (id !== undefined && this.slotOf[id] === -1) this.slotOf[id] = slot;
    });
  }

  /** The number of output slots (one per requested key, in request order). */
  get width(): number {
    return this.keyIds.length;
  }

  /** The slot of a token id, or -1. */
  slot(keyId: number): number {
    return keyId < this.slotOf.length ? this.slotOf[keyId]! : -1;
  }
}

/**
 * Decodes the selected properties of one record into `out[slot]` (undefined for a key the record
 * lacks). A key requested twice is decoded into its first slot only; callers pass distinct keys.
 */
export function decodeSelected(buffer: Buffer | null, selection: KeySelection, out: (CypherValue | undefined)[]): void {
  const width = selection.width;
  for (let i = 0; i < width; i++) out[i] = undefined;
  if (buffer === null) return;
  const reader = new ByteReader(buffer);
  const count = reader.varint();
  let remaining = width;
  for (let i = 0; i < count && remaining > 0; i++) {
    const slot = selection.slot(reader.varint());
    if (slot < 0) {
      skipValue(reader);
      continue;
    }
    out[slot] = decodeValue(reader);
    remaining--;
  }
}
