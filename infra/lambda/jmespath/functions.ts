/**
 * `@aws-lambda-powertools/jmespath/functions` in the Lambda bundles: Powertools idempotency makes
 * one as its default custom functions, which field paths (./index.ts) never call.
 */
export class PowertoolsFunctions {}
