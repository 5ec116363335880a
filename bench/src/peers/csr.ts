/**
 * The in-memory limit: packed CSR adjacency in both directions plus property columns, the fastest a
 * JS engine could possibly answer traversal and aggregation (no storage, no transactions).
 */
import type { SocialGraph } from '../gen/social.js';
import type { CityStats, GraphSubject } from '../subject.js';

/** Offsets/targets arrays: neighbours of v are targets[offsets[v] .. offsets[v+1]). */
interface Adjacency {
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
}

function buildAdjacency(n: number, from: Int32Array, to: Int32Array): Adjacency {
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < from.length; i++) offsets[from[i] + 1]++;
  for (let v = 0; v < n; v++) offsets[v + 1] += offsets[v];
  const cursor = offsets.slice(0, n);
  const targets = new Int32Array(from.length);
  for (let i = 0; i < from.length; i++) targets[cursor[from[i]]++] = to[i]!;
  return { offsets, targets };
}

/** A plain-JS CSR graph: G1 packed build, G6 two-hop, G7 bidirectional BFS, G8 column scan. */
export class CsrSubject implements GraphSubject {
  readonly name = 'JS CSR';
  readonly role = 'limit' as const;
  readonly note = 'packed Int32Array adjacency both ways + property columns, in memory';
  private out!: Adjacency;
  private in!: Adjacency;
  private n = 0;
  private cityCode!: Uint8Array;
  private ages!: Uint8Array;
  private cityNames: string[] = [];
  private mark!: Int32Array;
  private epoch = 0;
  private distA!: Int32Array;
  private distB!: Int32Array;

  async load(graph: SocialGraph): Promise<void> {
    this.n = graph.persons;
    this.out = buildAdjacency(graph.persons, graph.src, graph.dst);
    this.in = buildAdjacency(graph.persons, graph.dst, graph.src);
    this.mark = new Int32Array(graph.persons);
    this.distA = new Int32Array(graph.persons);
    this.distB = new Int32Array(graph.persons);
    const codes = new Map<string, number>();
    this.cityCode = new Uint8Array(graph.persons);
    this.ages = new Uint8Array(graph.persons);
    for (let i = 0; i < graph.persons; i++) {
      const p = graph.person(i);
      let c = codes.get(p.city);
      if (c === undefined) {
        c = this.cityNames.length;
        codes.set(p.city, c);
        this.cityNames.push(p.city);
      }
      this.cityCode[i] = c;
      this.ages[i] = p.age;
    }
  }

  /** Only the adjacency build, for G1 (property columns are not part of "queryable ids + adjacency"). */
  static buildOnly(graph: SocialGraph): number {
    const out = buildAdjacency(graph.persons, graph.src, graph.dst);
    const inn = buildAdjacency(graph.persons, graph.dst, graph.src);
    return out.targets.length + inn.targets.length;
  }

  oneHopCount(id: number): number {
    return this.out.offsets[id + 1] - this.out.offsets[id];
  }

  twoHopDistinct(id: number): number {
    const epoch = ++this.epoch;
    const { offsets, targets } = this.out;
    let count = 0;
    for (let i = offsets[id]; i < offsets[id + 1]; i++) {
      const b = targets[i];
      for (let j = offsets[b]; j < offsets[b + 1]; j++) {
        const c = targets[j];
        if (c !== id && this.mark[c] !== epoch) {
          this.mark[c] = epoch;
          count++;
        }
      }
    }
    return count;
  }

  /** Bidirectional BFS over KNOWS ignoring direction; expands the smaller frontier first. */
  shortestPath(a: number, b: number, maxHops: number): number | null {
    if (a === b) return 0;
    const epochA = ++this.epoch;
    const epochB = ++this.epoch;
    const { mark, distA, distB } = this;
    mark[a] = epochA;
    distA[a] = 0;
    mark[b] = epochB;
    distB[b] = 0;
    let frontA = [a];
    let frontB = [b];
    let depthA = 0;
    let depthB = 0;
    while (frontA.length > 0 && frontB.length > 0 && depthA + depthB < maxHops) {
      const forward = frontA.length <= frontB.length;
      const front = forward ? frontA : frontB;
      const own = forward ? epochA : epochB;
      const other = forward ? epochB : epochA;
      const ownDist = forward ? distA : distB;
      const otherDist = forward ? distB : distA;
      const depth = (forward ? depthA : depthB) + 1;
      const next: number[] = [];
      let best = Infinity;
      for (const v of front) {
        for (const adj of [this.out, this.in]) {
          for (let i = adj.offsets[v]; i < adj.offsets[v + 1]; i++) {
            const w = adj.targets[i];
            if (mark[w] === other) best = Math.min(best, depth + otherDist[w]);
            else if (mark[w] !== own) {
              mark[w] = own;
              ownDist[w] = depth;
              next.push(w);
            }
          }
        }
      }
      if (best <= maxHops) return best;
      if (forward) {
        frontA = next;
        depthA = depth;
      } else {
        frontB = next;
        depthB = depth;
      }
    }
    return null;
  }

  cityAggregate(): CityStats[] {
    const k = this.cityNames.length;
    const counts = new Float64Array(k);
    const sums = new Float64Array(k);
    for (let i = 0; i < this.n; i++) {
      const c = this.cityCode[i];
      counts[c]++;
      sums[c] += this.ages[i];
    }
    return this.cityNames.map((name, c) => [name, counts[c], sums[c] / counts[c]] as const);
  }

  countNodes(): number {
    return this.n;
  }

  countRelationships(): number {
    return this.out.targets.length;
  }

  async close(): Promise<void> {}
}
