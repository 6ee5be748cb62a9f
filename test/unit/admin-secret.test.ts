import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { putProviderSecret } from '#infra/admin-secret.ts';
import { readRegistryFile, stageEntry } from '#infra/stage-registry.ts';
import { providerSecretProblems } from '#shared/providers/adapters.ts';

const secretsManager = mockClient(SecretsManagerClient);
const prod = stageEntry(readRegistryFile(), 'prod');

afterEach(() => secretsManager.reset());

const wave = { apiKey: 'wave_sn_prod_1', webhookSecret: 'wave_sn_wh_1' };
const product = { subscriptionKey: 'sub', apiUser: 'user', apiKey: 'key' };

describe('put-provider-secret', () => {
  it("writes a complete value into the stage's secret, by its name", async () => {
    secretsManager.on(PutSecretValueCommand).resolves({ VersionId: 'v2' });
    const answer = await putProviderSecret(new SecretsManagerClient({}), prod, 'wave', JSON.stringify(wave));
    expect(answer).toEqual({ secretName: 'partner-payments-prod-wave-provider', versionId: 'v2' });
    expect(secretsManager.commandCalls(PutSecretValueCommand)[0]?.args[0].input).toEqual({
      SecretId: 'partner-payments-prod-wave-provider',
      SecretString: JSON.stringify(wave),
    });
  });

  it("writes Smile ID's partner id and key into the stage's identity secret, refusing either missing", async () => {
    secretsManager.on(PutSecretValueCommand).resolves({ VersionId: 'v1' });
    const smileId = { partnerId: '2343', apiKey: 'smile_prod_key_1' };
    const answer = await putProviderSecret(
      new SecretsManagerClient({}),
      prod,
      'smileid',
      JSON.stringify(smileId),
    );
    expect(answer).toEqual({ secretName: 'partner-payments-prod-smileid-provider', versionId: 'v1' });
    const missing = putProviderSecret(
      new SecretsManagerClient({}),
      prod,
      'smileid',
      JSON.stringify({ apiKey: 'smile_prod_key_1' }),
    );
    await expect(missing).rejects.toThrow(/partnerId must be a non-empty string/);
    await expect(missing).rejects.not.toThrow(/smile_prod_key_1/);
    expect(secretsManager.commandCalls(PutSecretValueCommand)).toHaveLength(1);
  });

  it('refuses a value the functions would sign with an empty or missing key, writing nothing and quoting no value', async () => {
    const refusals = [
      ['wave', '', /must be a JSON object/],
      ['wave', 'wave_sn_prod_1', /must be a JSON object/],
      ['wave', JSON.stringify({ ...wave, apiKey: '  ' }), /apiKey must be a non-empty string/],
      ['wave', JSON.stringify({ apiKey: 'wave_sn_prod_1' }), /webhookSecret must be a non-empty string/],
      ['mtn', JSON.stringify({ collection: product }), /disbursement.apiUser must be a non-empty string/],
    ] as const;
    for (const [adapter, text, reason] of refusals) {
      const failure = putProviderSecret(new SecretsManagerClient({}), prod, adapter, text);
      await expect(failure).rejects.toThrow(reason);
      await expect(failure).rejects.not.toThrow(/wave_sn_prod_1/);
    }
    expect(secretsManager.commandCalls(PutSecretValueCommand)).toHaveLength(0);
    expect(
      providerSecretProblems('mtn', JSON.stringify({ collection: product, disbursement: product })),
    ).toEqual([]);
  });
});
