import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * Replaces `@aws-sdk/credential-provider-node` in the Lambda bundles (infra/bundling.ts). Lambda
 * always hands a function its role's credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
 * AWS_SESSION_TOKEN, so the default chain's other sources (profiles, SSO, web identity, the
 * instance metadata service) are never reached there, yet they and the STS and SSO clients they
 * carry made up about a fifth of every bundle. The local host and the tests, which run unbundled,
 * keep the full chain.
 */
export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}) => fromEnv(init);
