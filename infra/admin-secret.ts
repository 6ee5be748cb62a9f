/**
 * `admin put-provider-secret`: puts a live provider's credentials into the stage's secret, which
 * the stack creates empty (infra/constructs/secrets.ts). The value is checked first, field by
 * field, so a typo cannot leave the functions signing with an empty or missing key. Kept apart
 * from the command so tests can reach it (infra/admin.ts runs as soon as it is imported).
 */
import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { LiveAdapterName } from '#shared/providers/adapters.ts';
import { providerSecretName } from './naming.ts';
import type { StageEntry } from './stage-registry.ts';

/** The fields each adapter reads from its secret (shared/providers/wave.ts, mtn.ts). */
const requiredFields: Record<LiveAdapterName, readonly string[]> = {
  wave: ['apiKey', 'webhookSecret'],
  mtn: [
    'collection.subscriptionKey',
    'collection.apiUser',
    'collection.apiKey',
    'disbursement.subscriptionKey',
    'disbursement.apiUser',
    'disbursement.apiKey',
  ],
};

export const isLiveAdapter = (name: string): name is LiveAdapterName => name in requiredFields;

/** What is wrong with `text` as the adapter's credentials, by field name only (never a value). */
export function providerSecretProblems(adapter: LiveAdapterName, text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return ['the value must be a JSON object'];
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return ['the value must be a JSON object'];
  }
  return requiredFields[adapter].flatMap((field) => {
    const value = field
      .split('.')
      .reduce<unknown>(
        (node, part) =>
          typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined,
        parsed,
      );
    return typeof value === 'string' && value.trim() !== '' ? [] : [`${field} must be a non-empty string`];
  });
}

/** Writes a new version of the stage's secret: the functions use it within a minute (their cache). */
export async function putProviderSecret(
  client: SecretsManagerClient,
  stage: StageEntry,
  adapter: LiveAdapterName,
  text: string,
): Promise<{ secretName: string; versionId: string | undefined }> {
  const problems = providerSecretProblems(adapter, text);
  if (problems.length > 0) throw new Error(`${adapter} credentials refused: ${problems.join('; ')}`);
  const secretName = providerSecretName(stage.name, adapter);
  const answer = await client.send(new PutSecretValueCommand({ SecretId: secretName, SecretString: text }));
  return { secretName, versionId: answer.VersionId };
}

export const newSecretsManagerClient = (stage: StageEntry) =>
  new SecretsManagerClient({ region: stage.region });
