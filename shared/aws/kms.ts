import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { traced } from '#shared/aws/tracing.ts';

/**
 * Webhook signing secrets are encrypted with the stage's own KMS key, which only the functions that
 * create subscriptions and send webhooks may use: a function that can read the table cannot read
 * the secrets. The endpoint comes from the standard AWS_ENDPOINT_URL_KMS variable when it is set
 * (the local host's stand-in, the tests), so nothing here knows where it runs.
 */
let client: KMSClient | undefined;
const kms = () => {
  client ??= traced(new KMSClient({}));
  return client;
};

/** The key's ARN on a stage (set by the stack with the grant), its alias for the admin command. */
export const webhookSecretsKeyVariable = 'WEBHOOK_SECRETS_KEY_ID';

function keyId(): string {
  const id = process.env[webhookSecretsKeyVariable];
  if (!id) {
    throw new Error(
      `${webhookSecretsKeyVariable} is not set: the function needs the access key:webhookSecrets:encrypt in its declaration`,
    );
  }
  return id;
}

/** The encryption context's keys and purpose, which the functions' grants require (IAM conditions). */
export const webhookSecretContextKeys = { purpose: 'purpose', businessId: 'businessId' } as const;
export const webhookSecretPurpose = 'webhook-signing-secret';

/**
 * Bound to the business: a ciphertext copied onto another business's subscription does not
 * decrypt, and CloudTrail shows whose secret each call was for.
 */
const contextOf = (businessId: string) => ({
  [webhookSecretContextKeys.purpose]: webhookSecretPurpose,
  [webhookSecretContextKeys.businessId]: businessId,
});

export async function encryptWebhookSecret(secret: string, businessId: string): Promise<string> {
  const { CiphertextBlob } = await kms().send(
    new EncryptCommand({
      KeyId: keyId(),
      Plaintext: Buffer.from(secret, 'utf8'),
      EncryptionContext: contextOf(businessId),
    }),
  );
  if (!CiphertextBlob) throw new Error('KMS returned no ciphertext');
  return Buffer.from(CiphertextBlob).toString('base64');
}

/** Decrypted once per container and ciphertext: a busy sender does not call KMS per webhook. */
const decrypted = new Map<string, Promise<string>>();

export function decryptWebhookSecret(ciphertext: string, businessId: string): Promise<string> {
  const cacheKey = `${businessId}:${ciphertext}`;
  let secret = decrypted.get(cacheKey);
  if (!secret) {
    secret = kms()
      .send(
        new DecryptCommand({
          CiphertextBlob: Buffer.from(ciphertext, 'base64'),
          EncryptionContext: contextOf(businessId),
        }),
      )
      .then(({ Plaintext }) => {
        if (!Plaintext) throw new Error('KMS returned no plaintext');
        return Buffer.from(Plaintext).toString('utf8');
      });
    // A failed call is not cached: the next attempt tries again.
    secret.catch(() => decrypted.delete(cacheKey));
    decrypted.set(cacheKey, secret);
  }
  return secret;
}
