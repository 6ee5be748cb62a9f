import fc from 'fast-check';
import { toJSONSchema, type ZodType } from 'zod';

/**
 * fast-check arbitraries from a zod schema, through the JSON Schema zod 4 writes of its input
 * (the same document an OpenAPI description is made of). `zod-fast-check` would do this from the
 * zod types directly, but it supports zod 3 and fast-check 3 only.
 *
 * `validInput` produces what the schema's shape allows (a cross-field rule such as "deviceId when
 * soundbox" may still refuse it, which is fine: both answers are checked); `anyInput` mixes those
 * with mutations of them (a field dropped, mistyped, far too long, not well-formed Unicode) and
 * with arbitrary JSON.
 */
// biome-ignore lint/suspicious/noExplicitAny: JSON Schema documents are untyped.
type JsonSchema = any;

export const jsonSchemaOf = (schema: ZodType): JsonSchema =>
  toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

export function validInput(schema: ZodType): fc.Arbitrary<unknown> {
  return arbitraryOf(jsonSchemaOf(schema));
}

export function anyInput(schema: ZodType): fc.Arbitrary<unknown> {
  const valid = validInput(schema);
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 4, arbitrary: fc.tuple(valid, mutation).map(([value, mutate]) => mutate(value)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

/** Strings a careless or hostile client sends: empty, huge, lone surrogates, escapes, markup. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\ud800',
    'a\udfffb',
    '%',
    '%E0%A4%A',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    'x'.repeat(5_000),
    '__proto__',
    'constructor',
    '0',
    '-1',
    '1e309',
    'null',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

const wrongValue = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, 0, -1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER * 10, [], {}, [1, 'a']),
);

type Mutate = (value: unknown) => unknown;

/** Changes one field of an object (at any depth), or the value itself when it is not one. */
const mutation: fc.Arbitrary<Mutate> = fc
  .tuple(fc.nat(), fc.constantFrom('drop', 'replace', 'wrap'), wrongValue)
  .map(([pick, how, replacement]) => (value: unknown) => {
    const paths = objectPaths(value);
    if (paths.length === 0) return replacement;
    const path = paths[pick % paths.length] as string[];
    const copy = structuredClone(value) as Record<string, unknown>;
    let parent = copy;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    const last = path[path.length - 1] as string;
    if (how === 'drop') delete parent[last];
    else if (how === 'wrap') parent[last] = [parent[last]];
    else parent[last] = replacement;
    return copy;
  });

function objectPaths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => [
    [...prefix, key],
    ...objectPaths(child, [...prefix, key]),
  ]);
}

function arbitraryOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(arbitraryOf));
  if (schema.oneOf) return fc.oneof(...schema.oneOf.map(arbitraryOf));
  switch (schema.type) {
    case 'object': {
      const properties: Record<string, JsonSchema> = schema.properties ?? {};
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, arbitraryOf(value)])),
        { requiredKeys: schema.required ?? [] },
      );
    }
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 1_000_000_000_000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e12, max: schema.maximum ?? 1e12, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 64, 300);
  switch (schema.format) {
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'date':
      return isoDates.map((date) => date.toISOString().slice(0, 10));
    case 'date-time':
      return isoDates.map((date) => date.toISOString());
  }
  if (schema.pattern) {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter(
        (text) => text.length >= minLength && text.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY),
      );
  }
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

const isoDates = fc.date({
  min: new Date('2020-01-01T00:00:00Z'),
  max: new Date('2030-12-31T00:00:00Z'),
  noInvalidDate: true,
});
