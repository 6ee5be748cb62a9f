import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DecryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { describe, expect, it } from 'vitest';
import { apiClient } from '#test/support/api-client.ts';
import { type LocalHost, newDataDir, startLocalHost } from '#test/support/local-host.ts';
import { testHostEnv } from '#test/support/local-host-global-setup.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

/**
 * The demo business's subscription, read from the host's table as the operator would, its secret
 * decrypted with the host's KMS stand-in as the sender does.
 */
async function demoSubscription(host: LocalHost) {
  const local = { region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  const client = new DynamoDBClient({ endpoint: host.config.endpoints.dynamodb, ...local });
  const kms = new KMSClient({ endpoint: host.config.endpoints.kms, ...local });
  try {
    const { Item } = await client.send(
      new GetItemCommand({
        TableName: host.config.tableName,
        Key: { pk: { S: `BIZ#${host.config.demo.businessId}` }, sk: { S: 'WEBHOOK' } },
      }),
    );
    // Never stored in clear.
    expect(Item).not.toHaveProperty('secret');
    const { Plaintext } = await kms.send(
      new DecryptCommand({
        CiphertextBlob: Buffer.from(Item?.secretCiphertext?.S ?? '', 'base64'),
        EncryptionContext: { purpose: 'webhook-signing-secret', businessId: host.config.demo.businessId },
      }),
    );
    return { url: Item?.url?.S, secret: Buffer.from(Plaintext ?? []).toString('utf8') };
  } finally {
    client.destroy();
    kms.destroy();
  }
}

/** A payment of the demo business, approved in the sandbox; answers its transaction id. */
async function demoPayment(host: LocalHost, reference: string): Promise<string> {
  const { baseUrl, demo } = host.config;
  const call = apiClient(baseUrl);
  const headers = {
    'X-API-KEY-ID': demo.apiKeyId,
    'X-API-KEY': demo.apiKey,
    'content-type': 'application/json',
  };
  const created = await call(
    'POST',
    '/partner_api/payment_requests',
    headers,
    redirectRequestBody(demo.storeId, {
      amountCents: 250_000,
      reference,
      paymentMethod: 'orange',
      data: { successUrl: 'myapp://paid', errorUrl: 'myapp://failed' },
    }),
  );
  const approved = await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, headers, {
    payerPhone: '+2250700000001',
  });
  return approved.body.transaction.id as string;
}

async function printed(host: LocalHost, text: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const line = host
      .output()
      .split('\n')
      .find((candidate) => candidate.startsWith('[demo receiver]') && candidate.includes(text));
    if (line) return line;
    if (Date.now() > deadline)
      throw new Error(`the demo receiver printed no line with ${text}:\n${host.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the demo receiver of the local host', () => {
  it("prints each verified event of the demo business, and follows the host's port across restarts", {
    timeout: 120_000,
  }, async () => {
    const dataDir = newDataDir();
    let host = await startLocalHost(dataDir, testHostEnv);
    try {
      const first = await demoSubscription(host);
      expect(first.url).toBe(`${host.config.baseUrl}/__local/webhooks`);
      expect(host.output()).toContain(`Webhooks     ${first.url} (the demo receiver`);

      const transactionId = await demoPayment(host, 'demo-42');
      const line = await printed(host, transactionId);
      expect(line).toMatch(/^\[demo receiver\] TRANSACTION_COMPLETED success · /);
      expect(line).toContain('orange +2250700000001 · Demo Boutique Plateau · demo-42');

      await host.stop();
      host = await startLocalHost(dataDir, testHostEnv);
      const again = await demoSubscription(host);
      expect(again.url).toBe(`${host.config.baseUrl}/__local/webhooks`);
      expect(first.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
      expect(again.secret).toBe(first.secret);
      await printed(host, await demoPayment(host, 'demo-43'));
    } finally {
      await host.stop();
    }
  });
});
