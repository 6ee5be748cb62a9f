/**
 * A KMS stand-in for the local host and the tests: one symmetric key, reached by the unchanged
 * @aws-sdk/client-kms through AWS_ENDPOINT_URL_KMS. It speaks the protocol the client speaks (AWS
 * JSON 1.1: `POST /`, `x-amz-target: TrentService.<Operation>`, errors as `{"__type", "message"}`)
 * and keeps the semantics the service relies on: Encrypt and Decrypt with AES-256-GCM, the
 * encryption context bound to the ciphertext (a Decrypt with another context fails with
 * InvalidCiphertextException, as KMS does), and a key named by id, ARN or alias. The key material
 * is given by the caller, so the local host can keep it across restarts in its data folder.
 * Not implemented: other operations, grants, key policies. Authentication is not checked.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookSecretsKeyAlias } from '#infra/naming.ts';
import { localAccountId } from './sqs.ts';

/** The key id WEBHOOK_SECRETS_KEY_ID names locally, by alias as the admin command does on a stage. */
export const localWebhookSecretsKeyId = webhookSecretsKeyAlias('local');

export interface RunningKms {
  endpoint: string;
  stop(): Promise<void>;
}

/** 32 random bytes, hex: the local key's material. */
export const newLocalKeyMaterial = () => randomBytes(32).toString('hex');

class KmsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const ciphertextVersion = 1;

export async function startKmsStandIn(options: {
  keyMaterial: string;
  region?: string;
  port?: number;
}): Promise<RunningKms> {
  const region = options.region ?? 'eu-west-1';
  const keyId = 'local-webhook-secrets';
  const keyArn = `arn:aws:kms:${region}:${localAccountId}:key/${keyId}`;
  const names = new Set([
    keyId,
    keyArn,
    localWebhookSecretsKeyId,
    `arn:aws:kms:${region}:${localAccountId}:${localWebhookSecretsKeyId}`,
  ]);
  const key = Buffer.from(options.keyMaterial, 'hex');
  if (key.length !== 32) throw new Error('The local KMS key material must be 32 bytes, hex');

  /** The context is authenticated with the ciphertext, in a canonical order. */
  const contextBytes = (context: unknown) =>
    Buffer.from(JSON.stringify(Object.entries((context ?? {}) as Record<string, string>).sort()));

  const operations: Record<string, (body: Record<string, unknown>) => Record<string, unknown>> = {
    Encrypt(body) {
      if (typeof body.KeyId !== 'string' || !names.has(body.KeyId)) {
        throw new KmsError('NotFoundException', `Key '${String(body.KeyId)}' does not exist`);
      }
      const plaintext = Buffer.from(String(body.Plaintext ?? ''), 'base64');
      if (plaintext.length === 0 || plaintext.length > 4096) {
        throw new KmsError('ValidationException', 'Plaintext must be 1 to 4096 bytes');
      }
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(contextBytes(body.EncryptionContext));
      const encrypted = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      const blob = Buffer.concat([Buffer.from([ciphertextVersion]), iv, cipher.getAuthTag(), encrypted]);
      return {
        CiphertextBlob: blob.toString('base64'),
        KeyId: keyArn,
        EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
      };
    },
    Decrypt(body) {
      if (body.KeyId !== undefined && !names.has(String(body.KeyId))) {
        throw new KmsError(
          'IncorrectKeyException',
          'The key ID in the request does not identify the key that encrypted the ciphertext',
        );
      }
      const blob = Buffer.from(String(body.CiphertextBlob ?? ''), 'base64');
      try {
        if (blob[0] !== ciphertextVersion) throw new Error('unknown version');
        const decipher = createDecipheriv('aes-256-gcm', key, blob.subarray(1, 13));
        decipher.setAuthTag(blob.subarray(13, 29));
        decipher.setAAD(contextBytes(body.EncryptionContext));
        const plaintext = Buffer.concat([decipher.update(blob.subarray(29)), decipher.final()]);
        return {
          Plaintext: plaintext.toString('base64'),
          KeyId: keyArn,
          EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
        };
      } catch {
        throw new KmsError('InvalidCiphertextException', '');
      }
    },
  };

  const server = createServer((request, response) => {
    void (async () => {
      const target = String(request.headers['x-amz-target'] ?? '');
      const operation = operations[target.replace(/^TrentService\./, '')];
      let status = 200;
      let answer: Record<string, unknown>;
      try {
        if (!operation) throw new KmsError('UnsupportedOperationException', `${target} is not supported`);
        answer = operation(JSON.parse((await bodyOf(request)) || '{}'));
      } catch (error) {
        status = 400;
        answer =
          error instanceof KmsError
            ? { __type: error.type, message: error.message }
            : { __type: 'ValidationException', message: String(error) };
      }
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify(answer));
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
