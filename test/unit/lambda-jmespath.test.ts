import { search as jmespathSearch } from '@aws-lambda-powertools/jmespath';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { search as fieldPathSearch } from '#infra/lambda/jmespath/index.ts';

describe('the field paths that stand for JMESPath in the Lambda bundles', () => {
  const events = fc.oneof(
    fc.jsonValue(),
    fc.record({ key: fc.jsonValue(), payload: fc.jsonValue() }, { requiredKeys: [] }),
    fc.record({ payload: fc.record({ key: fc.jsonValue() }, { requiredKeys: [] }) }),
  );

  it.each(['key', 'payload', 'payload.key'])('answer %s exactly as the JMESPath interpreter does', (path) => {
    fc.assert(
      fc.property(events, (event) => {
        expect(fieldPathSearch(path, event)).toStrictEqual(jmespathSearch(path, event as never));
      }),
    );
  });

  it('refuse any other expression instead of answering it wrongly', () => {
    for (const expression of ['[0]', 'a[*].b', 'powertools_json(body)', 'a || b', '"key"'])
      expect(() => fieldPathSearch(expression, { a: 1 })).toThrow(/only field paths/);
  });
});
