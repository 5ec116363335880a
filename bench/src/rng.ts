/**
 * Deterministic pseudo-random numbers for the generators. Every generated value is a pure function of
 * the profile seed, so two runs (and every adapter inside one run) see exactly the same data.
 */

/** A 32-bit integer hash (the murmur3 finaliser); cheap, well mixed, used for per-entity properties. */
export function hash32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of an (entity, field) pair under a seed: the source of every per-entity property. */
export function hashOf(seed: number, entity: number, field: number): number {
  return hash32(hash32(seed ^ Math.imul(field + 1, 0x9e3779b9)) ^ entity);
}

/** A seeded generator (sfc32): fast, 128-bit state, good enough statistics for benchmark data. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = hash32(seed ^ 0x243f6a88);
    this.b = hash32(seed ^ 0x85a308d3);
    this.c = hash32(seed ^ 0x13198a2e);
    this.d = 1;
    for (let i = 0; i < 16; i++) this.nextUint32();
  }

  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal variate (Box-Muller). */
  gaussian(): number {
    let u = this.next();
    while (u === 0) u = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** A random permutation of 0..n-1 (Fisher-Yates). */
  permutation(n: number): Int32Array {
    const p = new Int32Array(n);
    for (let i = 0; i < n; i++) p[i] = i;
    for (let i = n - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = p[i];
      p[i] = p[j]!;
      p[j] = t;
    }
    return p;
  }
}

/**
 * Samples ranks 0..n-1 with probability roughly proportional to (rank+1)^-s (a continuous Pareto
 * inverse CDF, floored). s in (0, 1) gives a power-law degree distribution with exponent 1 + 1/s.
 */
export class ZipfSampler {
  private readonly span: number;
  private readonly exponent: number;

  constructor(
    private readonly n: number,
    s: number,
  ) {
    if (!(s > 0 && s < 1)) throw new RangeError('ZipfSampler needs 0 < s < 1');
    this.exponent = 1 / (1 - s);
    this.span = Math.pow(n + 1, 1 - s) - 1;
  }

  /** A rank in [0, n). */
  sample(rng: Rng): number {
    const x = Math.pow(this.span * rng.next() + 1, this.exponent);
    return Math.min(this.n - 1, Math.floor(x) - 1);
  }
}
