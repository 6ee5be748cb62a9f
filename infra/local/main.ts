/**
 * `npm start`: the whole service on a laptop, with no AWS account, no Docker and no network.
 * DynamoDB Local and the SQS emulator (fauxqs) keep their data under DATA_DIR, and a poller feeds
 * the queues to the workers; timers run the schedules; an HTTP server plays API Gateway for
 * the handlers of the declared functions and serves a demo webhook receiver; the first start seeds a demo
 * business, subscribed to that receiver, and prints how to call it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import { projectRoot } from '#infra/paths.ts';
import { apiKeyRateLimitPerMinute } from '#infra/stage-config.ts';
import { ensureQueues } from './create-queues.ts';
import { ensureTable } from './create-table.ts';
import { brokerControlPath, startDevices } from './devices.ts';
import { JavaMissing, startDynamoDbLocal } from './dynamodb-local.ts';
import { startLocalScheduler } from './eventbridge-scheduler.ts';
import { demoEnv, firstPaymentSteps } from './first-payment.ts';
import { startKmsStandIn } from './kms.ts';
import {
  type LocalConfig,
  localDataDir,
  localKeyMaterial,
  localTableName,
  readLocalConfig,
  useLocalAws,
  writeLocalConfig,
} from './local-config.ts';
import { pollWorkerQueues } from './queue-poller.ts';
import { PerKeyRateLimit } from './rate-limit.ts';
import { runSchedules } from './scheduler.ts';
import { startLocalSqs } from './sqs.ts';
import { servesStartPage, startPage } from './start-page.ts';
import { pollTableStreams } from './stream-poller.ts';

const startedAt = performance.now();
const dataDir = localDataDir();
const port = Number(process.env.PORT ?? 3000);
// The stage's per-key limit (API_KEY_RATE_LIMIT_PER_MINUTE, as a stage's registry entry sets it), over
// the WAF rule's one-minute window, so an integrator meets 429 here before production.
let requestsPerKeyPerMinute: number;
try {
  requestsPerKeyPerMinute = apiKeyRateLimitPerMinute(process.env);
} catch (error) {
  console.error(`\nAPI_KEY_RATE_LIMIT_PER_MINUTE ${(error as Error).message}\n`);
  process.exit(1);
}

let dynamodb: Awaited<ReturnType<typeof startDynamoDbLocal>>;
try {
  dynamodb = await startDynamoDbLocal({ dataDir: `${dataDir}/dynamodb` });
} catch (error) {
  console.error(error instanceof JavaMissing ? `\n${error.message}\n` : error);
  process.exit(1);
}
// Queues and their messages survive a restart, in flight or delayed: a webhook retry waiting in its
// queue is sent after the restart, as it would be in AWS.
const sqs = await startLocalSqs({ dataDir: `${dataDir}/sqs` });
// Webhook secrets are encrypted as on a stage, with a key kept in DATA_DIR.
const kms = await startKmsStandIn({ keyMaterial: localKeyMaterial(dataDir) });
const devices = await startDevices(projectRoot, dataDir);
const endpoints = { dynamodb: dynamodb.endpoint, sqs: sqs.endpoint, kms: kms.endpoint, ...devices.endpoints };
useLocalAws(endpoints, localTableName);
// The local host is a sandbox stage, like every deployed stage but production.
process.env.SANDBOX = 'true';
// Metrics are CloudWatch's embedded format: on a laptop they would only flood the host's output.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
// Webhooks may go to a receiver on the laptop (the demo receiver, a developer's own server).
process.env.WEBHOOKS_ALLOW_LOOPBACK ??= 'true';
// Escrow holds end by one-time schedules: the Scheduler stand-in keeps them on disk and fires them
// (those due while the host was stopped included) into the expiry function.
const escrowScheduler = await startLocalScheduler({ dataDir: `${dataDir}/scheduler`, projectRoot });
process.env.AWS_ENDPOINT_URL_SCHEDULER = escrowScheduler.endpoint;
process.env.ESCROW_SCHEDULE_GROUP = 'local-escrow-expiry';
process.env.ESCROW_EXPIRY_FUNCTION_ARN = 'arn:aws:lambda:local:000000000000:function:expireEscrow';
process.env.ESCROW_SCHEDULER_ROLE_ARN = 'arn:aws:iam::000000000000:role/local-escrow-expiry';
await ensureTable(new DynamoDBClient({}), localTableName);
const sqsClient = new SQSClient({});
const queueUrls = await ensureQueues(sqsClient, sqs.endpoint);

// Imported only now: these modules build their AWS clients from the variables set above.
const { createApiGateway, requestIdHeader } = await import('./api-gateway.ts');
const { demoStillThere, ensureDemoOwner, seedDemo } = await import('./seed.ts');
const { demoReceiver, demoReceiverPath, subscribeDemoReceiver } = await import('./demo-receiver.ts');
const { smsInbox, smsInboxPath } = await import('./sms-inbox.ts');

const previous = readLocalConfig(dataDir);
const seeded = !(await demoStillThere(previous?.demo));
const seededDemo = previous && !seeded ? previous.demo : await seedDemo();
const demo = devices.withDemoDeviceCredentials({
  ...seededDemo,
  ownerPhone: await ensureDemoOwner(seededDemo),
});
const sandbox = { providerSecret: previous?.sandbox?.providerSecret ?? randomBytes(32).toString('hex') };
process.env.SANDBOX_PROVIDER_SECRET = sandbox.providerSecret;

const fakeProviders =
  process.env.PROVIDERS === 'fake'
    ? await (await import('./fake-providers.ts')).startFakeProviders()
    : undefined;
const liveRoutes = (await import('./live-providers.ts')).useLiveProviderEnvironment();

const gateway = createApiGateway(projectRoot, {
  rateLimit: new PerKeyRateLimit(requestsPerKeyPerMinute, 60_000),
});
const receiver = demoReceiver(demo.businessId);
const inbox = smsInbox();
let baseUrl = '';
const start = startPage(() => ({
  baseUrl,
  demo,
  dataDir,
  paths: {
    receiver: demoReceiverPath,
    smsInbox: smsInboxPath,
    soundbox: devices.pagePath(demo.deviceId),
    broker: brokerControlPath,
  },
}));
const server = createServer((request, response) => {
  // Every answer names its request, the local tools' too, as API Gateway's do on a stage.
  const requestId = randomUUID();
  response.setHeader(requestIdHeader, requestId);
  const path = request.url?.split('?')[0] ?? '/';
  if (servesStartPage(request.method, path)) return void start(request, response);
  if (path === smsInboxPath && request.method === 'GET') return void inbox(request, response);
  if (devices.serves(path)) return void devices.handle(request, response);
  void (path === demoReceiverPath ? receiver(request, response) : gateway(request, response, requestId));
});
// Idle connections are kept a minute and more (Node's default is 5 s), so a client that pauses
// between calls never reuses a socket the host has just closed. Node announces the timeout in a
// `Keep-Alive: timeout=65` header, which clients such as undici (fetch) shorten their own by.
server.keepAliveTimeout = 65_000;
// Above the keep-alive timeout, so a request arriving on an idle socket is not cut by it.
server.headersTimeout = 66_000;
server.on('upgrade', devices.upgrade);
// A socket error (a client resetting mid-request, a malformed request line) concerns that client
// alone; Node answers 400 to what it cannot parse.
server.on('clientError', (_error, socket) => {
  if (socket.writable)
    socket.end(
      `HTTP/1.1 400 Bad Request\r\n${requestIdHeader}: ${randomUUID()}\r\nConnection: close\r\n\r\n`,
    );
  else socket.destroy();
});
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(port, resolve);
});
baseUrl = `http://localhost:${(server.address() as AddressInfo).port}`;
// Links the service hands out (hosted pages, provider callbacks) point here.
process.env.PUBLIC_BASE_URL = baseUrl;
fakeProviders?.serviceIsAt(baseUrl);
const webhooksTo = await subscribeDemoReceiver(demo.businessId, baseUrl, seeded);
const webhooks =
  webhooksTo === `${baseUrl}${demoReceiverPath}`
    ? `${webhooksTo} (the demo receiver: it prints each event here; open it in a browser to see them)`
    : (webhooksTo ?? 'no subscription');
const workers = pollWorkerQueues({ client: sqsClient, projectRoot, queueUrls });
const schedules = runSchedules(projectRoot);
escrowScheduler.startFiring();
// The table's stream, read as Lambda's event source mapping reads it (DynamoDB Local has streams).
const streamConsumers = pollTableStreams({
  dynamodb: new DynamoDBClient({}),
  streams: new DynamoDBStreamsClient({ endpoint: dynamodb.endpoint }),
  tableName: localTableName,
  projectRoot,
  dataDir,
});
const config: LocalConfig = {
  baseUrl,
  demo,
  endpoints: { ...endpoints, mqttWebSocket: devices.webSocketUrl(baseUrl) },
  tableName: localTableName,
  sandbox,
  limits: { apiKeyRequestsPerMinute: requestsPerKeyPerMinute },
};
if (fakeProviders) config.fakeProviders = { wave: fakeProviders.waveUrl, mtn: fakeProviders.mtnUrl };
writeLocalConfig(dataDir, config);
// The README's commands read the demo's values from here: `. .data/demo.env`.
writeFileSync(`${dataDir}/demo.env`, demoEnv(baseUrl, demo), { mode: 0o600 });
const steps = firstPaymentSteps(baseUrl, demo, demoReceiverPath)
  .map((step, index) => `  ${index + 1}. ${step.title.en}\n${step.command.replace(/^/gm, '     ')}`)
  .join('\n');

console.log(`
Partner Payments Service is running locally (ready in ${Math.round(performance.now() - startedAt)} ms)
${seeded ? 'A demo business was created' : 'The demo business from the last run'}:
  Start page   ${baseUrl}/ (every local tool, the demo values and the steps below)
  Base URL     ${baseUrl}
  Key id       ${demo.apiKeyId}
  Key          ${demo.apiKey}
  Business id  ${demo.businessId}
  Store id     ${demo.storeId}
  Device id    ${demo.deviceId}
  Data         ${dataDir} (kept across restarts; delete it to start afresh)
  Webhooks     ${webhooks}${fakeProviders ? `\n  Providers    wave, mtn through their adapters to the fakes at ${fakeProviders.waveUrl} and ${fakeProviders.mtnUrl}` : ''}${liveRoutes.length > 0 ? `\n  Routes       ${liveRoutes.join(', ')}${process.env.PAWAPAY_PROVIDER_SECRET ? ` (pawaPay at ${process.env.PAWAPAY_BASE_URL ?? 'https://api.sandbox.pawapay.io'})` : ''}` : ''}
  Dashboard    ${baseUrl}/dashboard (sign in as the demo owner: ${demo.ownerPhone}; the code is in the SMS inbox)
  SMS inbox    ${baseUrl}${smsInboxPath} (what the sandbox SMS gateway sent, by number)
  Soundbox     ${baseUrl}${devices.pagePath(demo.deviceId)} (the demo device: open it, then create a soundbox payment request)
               or in a terminal: npm run soundbox -- --device ${demo.deviceId}
  MQTT broker  ${endpoints.mqtt} and ${devices.webSocketUrl(baseUrl)}

From a payment to its webhook, in another terminal (bash or zsh):
${steps}

Ctrl-C stops the service and DynamoDB Local.
`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping...`);
  // Schedules and workers first, while the API they may call back is still up; one stuck on a
  // slow call does not hold up the stop: its messages stay in the queue and come back after a restart.
  await Promise.race([
    Promise.all([schedules.stop(), workers.stop(), escrowScheduler.stop(), streamConsumers.stop()]),
    new Promise((resolve) => setTimeout(resolve, 5000)),
  ]);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await fakeProviders?.stop();
  await sqs.stop();
  await kms.stop();
  await devices.stop();
  await dynamodb.stop();
  console.log('stopped.');
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
