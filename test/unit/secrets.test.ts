import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerCredentials, SecretNotFilled, secretValue } from '#shared/aws/secrets.ts';

// A local HTTP server stands in for the Parameters and Secrets extension, answering as its
// documented API does: GET /secretsmanager/get?secretId=…, the session token in a header, the
// GetSecretValue answer as JSON.

const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:partner-payments-dev-wave-provider-AbCdEf';
const token = 'session-token-of-the-function';

interface Answer {
  readonly status: number;
  readonly body: string;
}

let server: Server;
const received: IncomingMessage[] = [];
let answers: Answer[] = [];

const found = (value: string): Answer => ({
  status: 200,
  body: JSON.stringify({ ARN: arn, Name: 'partner-payments-dev-wave-provider', SecretString: value }),
});

beforeAll(async () => {
  server = createServer((request, response) => {
    received.push(request);
    const answer = answers.shift() ?? { status: 500, body: 'no answer prepared' };
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
  // Every address (IPv4 and IPv6), as `localhost` may resolve to either.
  await new Promise<void>((resolve) => server.listen(0, resolve));
  process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT = String((server.address() as AddressInfo).port);
});

beforeEach(() => {
  process.env.AWS_SESSION_TOKEN = token;
  process.env.WAVE_PROVIDER_SECRET_ARN = arn;
});

afterEach(() => {
  received.length = 0;
  answers = [];
  delete process.env.WAVE_PROVIDER_SECRET;
  delete process.env.WAVE_PROVIDER_SECRET_ARN;
  delete process.env.AWS_SESSION_TOKEN;
});

afterAll(() => {
  delete process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT;
  server.close();
});

describe('secretValue through the secrets extension', () => {
  it('asks the extension for the ARN, with the session token, and answers the secret string', async () => {
    answers = [found('{"apiKey":"wave_sn_1"}')];
    await expect(secretValue('WAVE_PROVIDER_SECRET')).resolves.toBe('{"apiKey":"wave_sn_1"}');
    expect(received).toHaveLength(1);
    const [request] = received as [IncomingMessage];
    expect(request.method).toBe('GET');
    const url = new URL(request.url ?? '', 'http://localhost');
    expect(url.pathname).toBe('/secretsmanager/get');
    expect([...url.searchParams]).toEqual([['secretId', arn]]);
    expect(request.headers['x-aws-parameters-secrets-token']).toBe(token);
  });

  it.each([400, 403, 500, 502])('refuses an answer of %i, naming the ARN', async (status) => {
    answers = [{ status, body: '{"message":"secret value wave_sn_leaked"}' }];
    const failure = secretValue('WAVE_PROVIDER_SECRET');
    await expect(failure).rejects.toThrow(arn);
    await expect(failure).rejects.toThrow(String(status));
    await expect(failure).rejects.not.toThrow(/wave_sn_leaked/);
  });

  it('refuses an answer without a string value, without quoting it', async () => {
    answers = [
      { status: 200, body: JSON.stringify({ ARN: arn, SecretBinary: 'd2F2ZV9zbl9iaW5hcnk=' }) },
      { status: 200, body: 'wave_sn_not_json' },
    ];
    await expect(secretValue('WAVE_PROVIDER_SECRET')).rejects.toThrow(`secret ${arn} has no string value`);
    const notJson = secretValue('WAVE_PROVIDER_SECRET');
    await expect(notJson).rejects.toThrow(`secret ${arn} has no string value`);
    await expect(notJson).rejects.not.toThrow(/wave_sn_not_json/);
  });

  it('says a secret created empty and never filled is to be filled, naming the command, rather than answering no key', async () => {
    // What the extension passes on from GetSecretValue for a secret with no version yet.
    answers = [
      {
        status: 400,
        body: JSON.stringify({
          __type: 'ResourceNotFoundException',
          message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT",
        }),
      },
      found('   '),
    ];
    for (let read = 0; read < 2; read++) {
      const failure = secretValue('WAVE_PROVIDER_SECRET');
      await expect(failure).rejects.toThrow(SecretNotFilled);
      await expect(failure).rejects.toThrow(`secret ${arn} holds no value yet`);
      await expect(failure).rejects.toThrow('npm run admin -- put-provider-secret');
    }
  });

  it('asks again after a failed read, and answers what the extension has then', async () => {
    answers = [{ status: 500, body: '' }, found('after-the-failure')];
    await expect(secretValue('WAVE_PROVIDER_SECRET')).rejects.toThrow(arn);
    await expect(secretValue('WAVE_PROVIDER_SECRET')).resolves.toBe('after-the-failure');
    expect(received).toHaveLength(2);
  });

  it('keeps nothing itself: a value rotated in the extension is the next one answered', async () => {
    answers = [found('old-key'), found('new-key')];
    await expect(secretValue('WAVE_PROVIDER_SECRET')).resolves.toBe('old-key');
    await expect(secretValue('WAVE_PROVIDER_SECRET')).resolves.toBe('new-key');
  });

  it('fails naming the ARN when nothing listens on the port', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, resolve));
    const port = String((closed.address() as AddressInfo).port);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const previous = process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT;
    process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT = port;
    try {
      await expect(secretValue('WAVE_PROVIDER_SECRET')).rejects.toThrow(`secret ${arn} could not be read`);
    } finally {
      process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT = previous;
    }
  });
});

describe('secretValue without the extension', () => {
  it('answers the variable itself where it is set (the local host, tests), asking nothing', async () => {
    process.env.WAVE_PROVIDER_SECRET = '{"apiKey":"local"}';
    await expect(secretValue('WAVE_PROVIDER_SECRET')).resolves.toBe('{"apiKey":"local"}');
    expect(received).toHaveLength(0);
  });

  it('fails when neither the value nor its ARN is set', async () => {
    delete process.env.WAVE_PROVIDER_SECRET_ARN;
    await expect(secretValue('WAVE_PROVIDER_SECRET')).rejects.toThrow(
      'neither WAVE_PROVIDER_SECRET nor WAVE_PROVIDER_SECRET_ARN is set',
    );
  });
});

describe("a provider's credentials", () => {
  it('are answered parsed when every field the adapter reads is there', async () => {
    process.env.WAVE_PROVIDER_SECRET = '{"apiKey":"wave_sn_1","webhookSecret":"wh_1"}';
    await expect(providerCredentials('wave')).resolves.toEqual({
      apiKey: 'wave_sn_1',
      webhookSecret: 'wh_1',
    });
  });

  it('refuse a secret filled by hand with a field missing or empty, naming the field, never a value', async () => {
    process.env.WAVE_PROVIDER_SECRET = '{"apiKey":"","webhookSecret":"wave_wh_leaked"}';
    const failure = providerCredentials('wave');
    await expect(failure).rejects.toThrow(/wave credentials unusable \(apiKey must be a non-empty string\)/);
    await expect(failure).rejects.not.toThrow(/wave_wh_leaked/);
    process.env.MTN_PROVIDER_SECRET = '{"collection":{"subscriptionKey":"s","apiUser":"u","apiKey":"k"}}';
    try {
      await expect(providerCredentials('mtn')).rejects.toThrow(
        /disbursement.subscriptionKey must be a non-empty string/,
      );
    } finally {
      delete process.env.MTN_PROVIDER_SECRET;
    }
  });
});
