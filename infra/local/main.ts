/**
 * `npm start`: the whole service on a laptop, with no AWS account, no Docker and no network.
 * DynamoDB Local keeps its data under DATA_DIR; an in-memory SQS stand-in holds the queues and a
 * poller feeds them to the workers; timers run the schedules; an HTTP server plays API Gateway for
 * the handlers of the route table and serves a demo webhook receiver; the first start seeds a demo
 * business, subscribed to that receiver, and prints how to call it.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { projectRoot } from '#infra/paths.ts';
import { ensureQueues } from './create-queues.ts';
import { ensureTable } from './create-table.ts';
import { JavaMissing, startDynamoDbLocal } from './dynamodb-local.ts';
import {
  type LocalConfig,
  localDataDir,
  localTableName,
  readLocalConfig,
  useLocalAws,
  writeLocalConfig,
} from './local-config.ts';
import { pollWorkerQueues } from './queue-poller.ts';
import { runSchedules } from './scheduler.ts';
import { startSqsStandIn } from './sqs.ts';

const startedAt = performance.now();
const dataDir = localDataDir();
const port = Number(process.env.PORT ?? 3000);

let dynamodb: Awaited<ReturnType<typeof startDynamoDbLocal>>;
try {
  dynamodb = await startDynamoDbLocal({ dataDir: `${dataDir}/dynamodb` });
} catch (error) {
  console.error(error instanceof JavaMissing ? `\n${error.message}\n` : error);
  process.exit(1);
}
// Queues live in memory and are empty after a restart. What must survive one is kept in the table:
// events are written to its outbox first, and the outbox sweeper (DESIGN §7) sends them again.
const sqs = await startSqsStandIn();
const endpoints = { dynamodb: dynamodb.endpoint, sqs: sqs.endpoint };
useLocalAws(endpoints, localTableName);
// The local host is a sandbox stage, like every deployed stage but production.
process.env.SANDBOX = 'true';
// Webhooks may go to a receiver on the laptop (the demo receiver, a developer's own server).
process.env.WEBHOOKS_ALLOW_LOOPBACK ??= 'true';
await ensureTable(new DynamoDBClient({}), localTableName);
const sqsClient = new SQSClient({});
const queueUrls = await ensureQueues(sqsClient);

// Imported only now: these modules build their AWS clients from the variables set above.
const { createApiGateway } = await import('./api-gateway.ts');
const { demoStillThere, seedDemo } = await import('./seed.ts');
const { demoReceiver, demoReceiverPath, subscribeDemoReceiver } = await import('./demo-receiver.ts');

const previous = readLocalConfig(dataDir);
const seeded = !(await demoStillThere(previous?.demo));
const demo = previous && !seeded ? previous.demo : await seedDemo();
const sandbox = { providerSecret: previous?.sandbox?.providerSecret ?? randomBytes(32).toString('hex') };
process.env.SANDBOX_PROVIDER_SECRET = sandbox.providerSecret;

const fakeProviders =
  process.env.PROVIDERS === 'fake'
    ? await (await import('./fake-providers.ts')).startFakeProviders()
    : undefined;

const gateway = createApiGateway(projectRoot);
const receiver = demoReceiver(demo.businessId);
const server = createServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  void (path === demoReceiverPath ? receiver(request, response) : gateway(request, response));
});
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(port, resolve);
});
const baseUrl = `http://localhost:${(server.address() as AddressInfo).port}`;
// Links the service hands out (hosted pages, provider callbacks) point here.
process.env.PUBLIC_BASE_URL = baseUrl;
fakeProviders?.serviceIsAt(baseUrl);
const webhooksTo = await subscribeDemoReceiver(demo.businessId, baseUrl, seeded);
const webhooks =
  webhooksTo === `${baseUrl}${demoReceiverPath}`
    ? `${webhooksTo} (the demo receiver: it prints each event here)`
    : (webhooksTo ?? 'no subscription');
const workers = pollWorkerQueues({ client: sqsClient, projectRoot, queueUrls });
const schedules = runSchedules(projectRoot);
const config: LocalConfig = { baseUrl, demo, endpoints, tableName: localTableName, sandbox };
if (fakeProviders) config.fakeProviders = { wave: fakeProviders.waveUrl, mtn: fakeProviders.mtnUrl };
writeLocalConfig(dataDir, config);

console.log(`
Partner Payments Service is running locally (ready in ${Math.round(performance.now() - startedAt)} ms)
${seeded ? 'A demo business was created' : 'The demo business from the last run'}:
  Base URL     ${baseUrl}
  Key id       ${demo.apiKeyId}
  Key          ${demo.apiKey}
  Business id  ${demo.businessId}
  Store id     ${demo.storeId}
  Device id    ${demo.deviceId}
  Data         ${dataDir} (kept across restarts; delete it to start afresh)
  Webhooks     ${webhooks}${fakeProviders ? `\n  Providers    wave, mtn through their adapters to the fakes at ${fakeProviders.waveUrl} and ${fakeProviders.mtnUrl}` : ''}

Try:
  curl -s ${baseUrl}/partner_api/stores -H 'X-API-KEY-ID: ${demo.apiKeyId}' -H 'X-API-KEY: ${demo.apiKey}'

Ctrl-C stops the service and DynamoDB Local.
`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping...`);
  // Schedules and workers first, while the API they may call back is still up; one stuck on a
  // slow call does not hold up the stop, since its messages would not outlive the process anyway.
  await Promise.race([
    Promise.all([schedules.stop(), workers.stop()]),
    new Promise((resolve) => setTimeout(resolve, 5000)),
  ]);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await fakeProviders?.stop();
  await sqs.stop();
  await dynamodb.stop();
  console.log('stopped.');
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
