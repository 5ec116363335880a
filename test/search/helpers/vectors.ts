/** Seeded generation of vector sets with low intrinsic dimension (like sentence embeddings). */

/** mulberry32: a small seeded PRNG. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal sample (Box-Muller). */
export function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** `count` vectors of `dimensions`: a `latent`-dimensional Gaussian projected up, plus 10% noise. */
export function generateVectors(count: number, dimensions: number, seed: number, latent = 16): Float32Array[] {
  const random = seededRandom(seed);
  const projection = Array.from({ length: latent * dimensions }, () => gaussian(random));
  return Array.from({ length: count }, () => {
    const z = Array.from({ length: latent }, () => gaussian(random));
    const v = new Float32Array(dimensions);
    for (let j = 0; j < dimensions; j++) {
      let sum = 0;
      for (let i = 0; i < latent; i++) sum += z[i] * projection[i * dimensions + j];
      v[j] = sum + 0.1 * Math.sqrt(latent) * gaussian(random);
    }
    return v;
  });
}

/** Mean fraction of `truth` ids found in `found`, per query. */
export function recallAt(found: readonly (readonly bigint[])[], truth: readonly (readonly bigint[])[]): number {
  let total = 0;
  found.forEach((ids, q) => {
    const expected = new Set(truth[q]);
    total += ids.filter((id) => expected.has(id)).length / Math.max(1, expected.size);
  });
  return total / found.length;
}
