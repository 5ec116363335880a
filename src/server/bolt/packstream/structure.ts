/**
 * A PackStream structure: a one-byte signature and up to 15 fields. Graph, temporal and spatial
 * values, and every Bolt message, travel as structures.
 */
export class Structure {
  constructor(
    readonly signature: number,
    readonly fields: readonly unknown[],
  ) {}

  /** `Structure<0x4e>(3 fields)`, for logs and error messages. */
  toString(): string {
    return `Structure<0x${this.signature.toString(16).padStart(2, '0')}>(${this.fields.length} fields)`;
  }
}

/** Largest number of fields a structure header can declare. */
export const MAX_STRUCTURE_FIELDS = 15;
