import fc from 'fast-check';
import MnemonistLRUCache from 'mnemonist/lru-cache.js';
import { describe, expect, it } from 'vitest';
import LRUCache from '#infra/lambda/lru-cache.ts';

type Operation =
  | { op: 'get' | 'peek' | 'has'; key: string }
  | { op: 'set'; key: string; value: number }
  | { op: 'clear' };

const keys = fc.constantFrom('a', 'b', 'c', 'd', 'e');
const operations = fc.array(
  fc.oneof(
    fc.record({ op: fc.constantFrom('get' as const, 'peek' as const, 'has' as const), key: keys }),
    fc.record({ op: fc.constant('set' as const), key: keys, value: fc.integer() }),
    fc.constant({ op: 'clear' as const }),
  ),
  { maxLength: 60 },
);

describe('the LRU cache that stands for mnemonist’s in the Lambda bundles', () => {
  it('answers every operation the SDK’s endpoint cache makes as mnemonist’s does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), operations, (capacity, sequence: Operation[]) => {
        const ours = new LRUCache<string, number>(capacity);
        const theirs = new MnemonistLRUCache<string, number>(capacity);
        for (const step of sequence) {
          if (step.op === 'set') {
            ours.set(step.key, step.value);
            theirs.set(step.key, step.value);
          } else if (step.op === 'clear') {
            ours.clear();
            theirs.clear();
          } else {
            expect(ours[step.op](step.key)).toStrictEqual(theirs[step.op](step.key));
          }
          expect(ours.size).toBe(theirs.size);
        }
      }),
    );
  });
});
