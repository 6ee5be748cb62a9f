/**
 * Replaces `mnemonist/lru-cache` in the Lambda bundles (infra/bundling.ts). Its one user there is
 * the SDK's endpoint cache, which every DynamoDB client builds for endpoint discovery; with its
 * typed-array helpers and `obliterator` it was ~7 KB of every bundle. A Map keeps insertion order,
 * which is all a least-recently-used cache needs. test/unit/lambda-lru-cache.test.ts holds it to
 * mnemonist's on random sequences of the operations the endpoint cache calls.
 */
export default class LRUCache<K, V> {
  readonly #capacity: number;
  readonly #entries = new Map<K, V>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Reads and marks the key as the most recently used. */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Reads without marking. */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#capacity) this.#entries.delete(this.#entries.keys().next().value as K);
    return this;
  }

  clear(): void {
    this.#entries.clear();
  }
}
