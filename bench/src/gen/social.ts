/**
 * The seeded social graph: Person nodes with `id`, `name`, `age`, `city`, `email`, `bio`, and KNOWS
 * relationships whose in- and out-degrees follow a power law (sources and targets drawn from Zipf
 * distributions over two independent random rankings of the nodes). No self-loops, no duplicates.
 */
import { Rng, ZipfSampler, hashOf } from '../rng.js';
import { CITIES, COMMON_WORDS, FIRST_NAMES, LAST_NAMES } from './words.js';

/** One Person's properties (ids are 0..persons-1). */
export interface Person {
  readonly id: number;
  readonly name: string;
  readonly age: number;
  readonly city: string;
  readonly email: string;
  readonly bio: string;
}

/** The generated graph: people are computed on demand from their id; edges are packed arrays. */
export interface SocialGraph {
  readonly seed: number;
  readonly persons: number;
  /** Relationship i goes from src[i] to dst[i]. */
  readonly src: Int32Array;
  readonly dst: Int32Array;
  person(id: number): Person;
}

const FIELD_NAME = 1;
const FIELD_AGE = 2;
const FIELD_CITY = 3;
const FIELD_EMAIL = 4;
const FIELD_BIO = 5;

/** Person `id`'s properties; a pure function of (seed, id). */
export function makePerson(seed: number, id: number): Person {
  const h = hashOf(seed, id, FIELD_NAME);
  const name = `${FIRST_NAMES[h % FIRST_NAMES.length]} ${LAST_NAMES[(h >>> 8) % LAST_NAMES.length]}`;
  const age = 18 + (hashOf(seed, id, FIELD_AGE) % 63);
  // Skewed city popularity: squaring a uniform favours the first cities.
  const u = hashOf(seed, id, FIELD_CITY) / 4294967296;
  const city = CITIES[Math.floor(u * u * CITIES.length)];
  const tag = hashOf(seed, id, FIELD_EMAIL).toString(36);
  const email = `${name.split(' ')[0].toLowerCase()}.${tag}.${id}@example.org`;
  const b = hashOf(seed, id, FIELD_BIO);
  const bio = `Likes ${COMMON_WORDS[b % 200]} and ${COMMON_WORDS[(b >>> 8) % 200]}, works in ${COMMON_WORDS[(b >>> 16) % 200]}.`;
  return { id, name, age, city, email, bio };
}

/** Zipf exponent of the degree ranks: degree distribution exponent 1 + 1/0.6 ≈ 2.7, like social graphs. */
const DEGREE_SKEW = 0.6;

/** Generates `relationships` distinct KNOWS edges over `persons` nodes. */
export function generateSocialGraph(seed: number, persons: number, relationships: number): SocialGraph {
  if (relationships > persons * (persons - 1) * 0.5) throw new RangeError('too many relationships for the node count');
  const rng = new Rng(seed);
  const outRank = rng.permutation(persons);
  const inRank = rng.permutation(persons);
  const zipf = new ZipfSampler(persons, DEGREE_SKEW);
  const seen = new Set<number>();
  const src = new Int32Array(relationships);
  const dst = new Int32Array(relationships);
  let m = 0;
  while (m < relationships) {
    const a = outRank[zipf.sample(rng)];
    const b = inRank[zipf.sample(rng)];
    if (a === b) continue;
    const key = a * persons + b;
    if (seen.has(key)) continue;
    seen.add(key);
    src[m] = a;
    dst[m] = b;
    m++;
  }
  return { seed, persons, src, dst, person: (id) => makePerson(seed, id) };
}

/** Deterministic sample of `count` node ids (uniform), for lookups and expansions. */
export function sampleIds(seed: number, persons: number, count: number): number[] {
  const rng = new Rng(seed ^ 0x5eed);
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(rng.int(persons));
  return ids;
}
