import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '#infra/paths.ts';
import { type QueueName, queues, queueUrlVariable } from '#shared/catalogue/queues.ts';
import { localWebhookSecretsKeyId, newLocalKeyMaterial } from './kms.ts';
import { localQueueUrl } from './sqs.ts';

/** Where the local host keeps its data (DynamoDB files, local.json): DATA_DIR, default `.data/`. */
export function localDataDir(): string {
  return resolve(process.env.DATA_DIR ?? join(projectRoot, '.data'));
}

export const localTableName = 'partner-payments-local';

export interface DemoCredentials {
  businessId: string;
  storeId: string;
  deviceId: string;
  apiKeyId: string;
  apiKey: string;
  /** The demo business's owner's phone, to sign in on the dashboard with (`/dashboard`). */
  ownerPhone?: string;
  /** The demo device's broker password, kept so the simulator can connect as it out of the box. */
  devicePassword?: string;
}

/** `DATA_DIR/local.json`: what a newcomer, a test or the admin command needs to reach the host. */
export interface LocalConfig {
  baseUrl: string;
  demo: DemoCredentials;
  /** The running host's DynamoDB Local and SQS, so the admin command acts on the same data. */
  endpoints: LocalEndpoints;
  tableName: string;
  /** The key the sandbox provider signs its callbacks with, kept so a restart keeps it too. */
  sandbox: { providerSecret: string };
  /** The limits the host applies, as the stage's WAF does: API_KEY_RATE_LIMIT_PER_MINUTE. */
  limits?: { apiKeyRequestsPerMinute: number };
  /** With PROVIDERS=fake: where the Wave and MTN MoMo fakes listen (their `/_fake/` controls too). */
  fakeProviders?: { wave: string; mtn: string };
}

const configPath = (dataDir: string) => join(dataDir, 'local.json');

export function readLocalConfig(dataDir: string): LocalConfig | undefined {
  const path = configPath(dataDir);
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as LocalConfig;
}

/** Written whole or not at all (a temporary file renamed over it): readers never see half of it. */
export function writeLocalConfig(dataDir: string, config: LocalConfig): void {
  mkdirSync(dataDir, { recursive: true });
  const temporary = `${configPath(dataDir)}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, configPath(dataDir));
}

export interface LocalEndpoints {
  dynamodb: string;
  sqs: string;
  kms: string;
  /** The IoT data-plane stand-in (the service publishes there). */
  iotData?: string;
  /** Where devices connect: the broker over TCP, and over WebSocket on the HTTP server. */
  mqtt?: string;
  mqttWebSocket?: string;
}

/**
 * The local KMS key's material, in `DATA_DIR/kms-key`, made on first use: the local host and the
 * admin command (with or without the host running) encrypt and decrypt webhook secrets with the
 * same key, across restarts.
 */
export function localKeyMaterial(dataDir: string): string {
  const path = join(dataDir, 'kms-key');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const material = newLocalKeyMaterial();
  writeFileSync(path, `${material}\n`, { mode: 0o600, flag: 'wx' });
  return material;
}

/**
 * Points the AWS SDK at the local stand-ins through the standard variables, so handlers run
 * unchanged, and pins dummy credentials so nothing local can ever reach a real AWS account.
 * Without an SQS endpoint (tests that need DynamoDB only), queues are left unset; without a KMS
 * endpoint, so is the webhook-secrets key.
 */
export function useLocalAws(
  endpoints: Pick<LocalEndpoints, 'dynamodb'> & Partial<LocalEndpoints>,
  tableName: string,
): void {
  process.env.AWS_REGION = 'eu-west-1';
  process.env.AWS_ACCESS_KEY_ID = 'local';
  process.env.AWS_SECRET_ACCESS_KEY = 'local';
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoints.dynamodb;
  process.env.TABLE_NAME = tableName;
  if (endpoints.kms) {
    process.env.AWS_ENDPOINT_URL_KMS = endpoints.kms;
    process.env.WEBHOOK_SECRETS_KEY_ID = localWebhookSecretsKeyId;
  }
  if (endpoints.iotData) process.env.AWS_ENDPOINT_URL_IOT_DATA_PLANE = endpoints.iotData;
  if (endpoints.sqs) {
    process.env.AWS_ENDPOINT_URL_SQS = endpoints.sqs;
    // Every function may send to every queue locally: the local SQS has no IAM to enforce grants.
    for (const queue of Object.keys(queues) as QueueName[]) {
      process.env[queueUrlVariable(queue)] = localQueueUrl(endpoints.sqs, queue);
    }
  }
}
