import { httpCall } from '#shared/aws/tracing.ts';
import {
  adapterSecretVariable,
  type LiveAdapterName,
  providerSecretProblems,
} from '#shared/providers/adapters.ts';

/**
 * A secret the function was given: in the environment variable `name` itself (the local host,
 * tests), or in Secrets Manager under the ARN in `<name>_ARN` (deployed stages), read through the
 * AWS Parameters and Secrets Lambda Extension that the stack adds to every function it grants a
 * secret (`infra/service-function.ts`, with the grant and the variable). The extension answers on
 * localhost and caches each secret for its TTL, so no Secrets Manager client is bundled (~13.5 KB
 * of each function that reads one) and a rotated provider key is read again within the TTL.
 *
 * Nothing is cached here: a second cache in front of the extension's would keep a rotated value
 * past the TTL, and a cached read costs one localhost round trip (about a millisecond), once per
 * provider call or callback. A failed read is an error the request reports; the next one asks
 * again.
 */
export async function secretValue(name: string): Promise<string> {
  const direct = process.env[name];
  if (direct) return direct;
  const arn = process.env[`${name}_ARN`];
  if (!arn) throw new Error(`neither ${name} nor ${name}_ARN is set`);
  const port = process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773';
  const url = new URL(`http://localhost:${port}/secretsmanager/get?secretId=${encodeURIComponent(arn)}`);
  const traced = httpCall('GET', url);
  let response: Response;
  try {
    response = await fetch(url, {
      // The extension answers only requests carrying the function's session token.
      headers: { 'X-Aws-Parameters-Secrets-Token': process.env.AWS_SESSION_TOKEN ?? '' },
    });
  } catch (error) {
    traced(undefined);
    throw new Error(`secret ${arn} could not be read: the extension did not answer`, { cause: error });
  }
  traced(response.status);
  // The extension logs the cause of a failed read (access denied, no such secret) itself. Its
  // answer is Secrets Manager's error, which never holds a secret's value.
  if (!response.ok) {
    const reason = (await response.text().catch(() => '')).slice(0, 500);
    if (neverFilled(reason)) throw new SecretNotFilled(arn);
    throw new Error(`secret ${arn} could not be read: the extension answered ${response.status}`);
  }
  let answer: { SecretString?: unknown } | undefined;
  try {
    answer = (await response.json()) as typeof answer;
  } catch {
    // Not JSON: said below without the text, which could hold the value.
  }
  const value = answer?.SecretString;
  if (typeof value !== 'string') throw new Error(`secret ${arn} has no string value`);
  if (!value.trim()) throw new SecretNotFilled(arn);
  return value;
}

/**
 * A provider's secret is created empty (infra/constructs/secrets.ts), and stays so until an
 * operator fills it: until then every call that needs it fails with this, naming the command,
 * rather than calling the provider with no key.
 */
export class SecretNotFilled extends Error {
  constructor(arn: string) {
    super(
      `secret ${arn} holds no value yet: an operator fills it with \`npm run admin -- put-provider-secret\` (docs/operations/secrets.md)`,
    );
  }
}

/** Secrets Manager's answer for a secret with no version yet: no value under AWSCURRENT. */
const neverFilled = (reason: string) =>
  /ResourceNotFoundException/.test(reason) && /AWSCURRENT|secret value/i.test(reason);

/**
 * A live provider's credentials, parsed and checked: a secret filled by hand with a field missing
 * or empty fails here, naming the field, rather than reaching the provider without it.
 */
export async function providerCredentials<T>(adapter: LiveAdapterName): Promise<T> {
  const text = await secretValue(adapterSecretVariable[adapter]);
  const problems = providerSecretProblems(adapter, text);
  if (problems.length > 0) {
    throw new Error(
      `${adapter} credentials unusable (${problems.join('; ')}): put them again with \`npm run admin -- put-provider-secret\``,
    );
  }
  return JSON.parse(text) as T;
}
