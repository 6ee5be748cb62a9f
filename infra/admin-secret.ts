/**
 * `admin put-provider-secret`: puts a live provider's credentials into the stage's secret, which
 * the stack creates empty (infra/constructs/secrets.ts). The value is checked first, field by
 * field, so a typo cannot leave the functions signing with an empty or missing key. Kept apart
 * from the command so tests can reach it (infra/admin.ts runs as soon as it is imported).
 */
import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import {
  adapterSecretFields,
  type LiveAdapterName,
  providerSecretProblems,
} from '#shared/providers/adapters.ts';
import { providerSecretName } from './naming.ts';
import type { StageEntry } from './stage-registry.ts';

export const isLiveAdapter = (name: string): name is LiveAdapterName => name in adapterSecretFields;

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
