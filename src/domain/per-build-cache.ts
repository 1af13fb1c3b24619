// Answers that are a pure function of one build (search matches, since bodies, rendered pages) are kept per
// build: entries belong to a snapshot (or any object standing for the build) (a new build starts empty; an old build's entries go when it does) and are evicted
// least recently used first within a budget of cost units (rank entries, bytes).

import { releasableWhenIdle } from "./idle-release.ts";

export interface KeyedCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
}

export class PerBuildCache<V, B extends object = object> {
  private builds = new WeakMap<B, { entries: Map<string, V>; cost: number }>();
  /** performance.now() at the last read or write, and whether anything was written since the last release. */
  lastUsed = 0;
  holding = false;

  private readonly budget: number;
  private readonly costOf: (value: V) => number;
  /** An entry costing more than budget / maxShare is not kept (one huge answer must not flush all the others). */
  private readonly maxShare: number;

  constructor(budget: number, costOf: (value: V) => number, maxShare = 8) {
    this.budget = budget;
    this.costOf = costOf;
    this.maxShare = maxShare;
    releasableWhenIdle(this);
  }

  /** Forgets every build's entries (an idle process gives their memory back: src/domain/idle-release.ts). */
  release(): void {
    this.builds = new WeakMap();
    this.holding = false;
  }

  /** The cache of one build, in the shape the domain's search takes as its memo. */
  of(snapshot: B): KeyedCache<V> {
    let build = this.builds.get(snapshot);
    if (!build) {
      build = { entries: new Map(), cost: 0 };
      this.builds.set(snapshot, build);
    }
    const b = build;
    this.lastUsed = performance.now();
    return {
      get: (key) => {
        this.lastUsed = performance.now();
        const hit = b.entries.get(key);
        if (hit !== undefined) {
          b.entries.delete(key);
          b.entries.set(key, hit);
        }
        return hit;
      },
      set: (key, value) => {
        this.lastUsed = performance.now();
        const cost = this.costOf(value);
        if (cost > this.budget / this.maxShare || b.entries.has(key)) return;
        this.holding = true;
        b.entries.set(key, value);
        b.cost += cost;
        for (const [k, v] of b.entries) {
          if (b.cost <= this.budget) break;
          b.entries.delete(k);
          b.cost -= this.costOf(v);
        }
      },
    };
  }

  /** Up to `max` values of one build, most recently used first. */
  recent(snapshot: B, max: number): V[] {
    // Least recently used first in the map: keep the last `max` seen without copying every entry.
    const last: V[] = [];
    for (const v of this.builds.get(snapshot)?.entries.values() ?? []) {
      if (last.length === max) last.shift();
      last.push(v);
    }
    return last.reverse();
  }

  /** The cached value, or `compute()` kept for next time. */
  getOrCompute(snapshot: B, key: string, compute: () => V): V {
    const cache = this.of(snapshot);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const value = compute();
    cache.set(key, value);
    return value;
  }
}
