import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { traced } from '#shared/aws/tracing.ts';

let client: SecretsManagerClient | undefined;
const cache = new Map<string, Promise<string>>();

/**
 * A secret the function was given: in the environment variable `name` itself (the local host,
 * tests), or in Secrets Manager under the ARN in `<name>_ARN` (deployed stages), read once per
 * container. The stack grants the read and sets the variable in the same call.
 */
export function secretValue(name: string): Promise<string> {
  const direct = process.env[name];
  if (direct) return Promise.resolve(direct);
  const arn = process.env[`${name}_ARN`];
  if (!arn) return Promise.reject(new Error(`neither ${name} nor ${name}_ARN is set`));
  let value = cache.get(arn);
  if (!value) {
    client ??= traced(new SecretsManagerClient({}));
    value = client.send(new GetSecretValueCommand({ SecretId: arn })).then(({ SecretString }) => {
      if (!SecretString) throw new Error(`secret ${arn} has no string value`);
      return SecretString;
    });
    // A failed read is not cached: the next request tries again.
    value.catch(() => cache.delete(arn));
    cache.set(arn, value);
  }
  return value;
}
