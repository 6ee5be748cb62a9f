/**
 * `admin put-provider-secret`: puts a live provider's credentials into the stage's secret, which
 * the stack creates empty (infra/constructs/secrets.ts). The value is checked first, field by
 * field, so a typo cannot leave the functions signing with an empty or missing key. Kept apart
 * from the command so tests can reach it (infra/admin.ts runs as soon as it is imported).
 */
import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { smileIdSecretFields } from '#shared/identity/smile-id-secret.ts';
import { adapterSecretFields, jsonSecretProblems } from '#shared/providers/adapters.ts';
import { providerSecretName } from './naming.ts';
import type { StageEntry } from './stage-registry.ts';

/** The fields of each secret an operator fills: the live providers', and Smile ID's (identity checks). */
const secretFields: Record<string, readonly string[]> = {
  ...adapterSecretFields,
  smileid: smileIdSecretFields,
};
export type FilledSecretName = keyof typeof adapterSecretFields | 'smileid';

export const isFilledSecret = (name: string): name is FilledSecretName => Object.hasOwn(secretFields, name);

/** Writes a new version of the stage's secret: the functions use it within a minute (their cache). */
export async function putProviderSecret(
  client: SecretsManagerClient,
  stage: StageEntry,
  provider: FilledSecretName,
  text: string,
): Promise<{ secretName: string; versionId: string | undefined }> {
  const problems = jsonSecretProblems(secretFields[provider] ?? [], text);
  if (problems.length > 0) throw new Error(`${provider} credentials refused: ${problems.join('; ')}`);
  const secretName = providerSecretName(stage.name, provider);
  const answer = await client.send(new PutSecretValueCommand({ SecretId: secretName, SecretString: text }));
  return { secretName, versionId: answer.VersionId };
}

export const newSecretsManagerClient = (stage: StageEntry) =>
  new SecretsManagerClient({ region: stage.region });
