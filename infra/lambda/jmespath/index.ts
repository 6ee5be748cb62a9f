/**
 * Replaces `@aws-lambda-powertools/jmespath` in the Lambda bundles (infra/bundling.ts). Powertools
 * idempotency imports its full JMESPath interpreter (~23 KB of each idempotent route) to pick the
 * key and the payload out of the event, and the service only ever asks for plain fields
 * (`shared/http/idempotency.ts`: `key`, `payload`). This answers dotted field paths as JMESPath
 * does (a missing field or a non-object along the way is `null`); any other expression would be a
 * new need, refused loudly rather than answered wrongly. test/unit/lambda-jmespath.test.ts holds it
 * to the real interpreter.
 */
const fieldPath = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

export function search(expression: string, data: unknown, _options?: unknown): unknown {
  if (!fieldPath.test(expression)) {
    throw new Error(
      `The Lambda bundles answer only field paths, not the JMESPath expression "${expression}" (infra/lambda/jmespath)`,
    );
  }
  let value = data;
  for (const field of expression.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    value = (value as Record<string, unknown>)[field] ?? null;
  }
  return value;
}
