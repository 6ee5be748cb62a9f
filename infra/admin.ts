/**
 * `npm run admin -- <command> [options]`: the operator's provisioning tool (what the business
 * dashboard does, which is outside this API). Acts on the local host's data (DATA_DIR) by default,
 * or on a deployed stage's table with `--stage NAME` (AWS credentials from the environment).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { adminWebhookUrlPolicy, webhookSettings } from './admin-webhook.ts';
import { ensureTable } from './local/create-table.ts';
import { JavaMissing, startDynamoDbLocal } from './local/dynamodb-local.ts';
import { startKmsStandIn } from './local/kms.ts';
import {
  localDataDir,
  localKeyMaterial,
  localTableName,
  readLocalConfig,
  useLocalAws,
} from './local/local-config.ts';
import { tableNameForStage, webhookSecretsKeyAlias } from './naming.ts';
import {
  localStageName,
  readRegistryFile,
  type StageEntry,
  StageRegistryError,
  stageEntry,
} from './stage-registry.ts';

const usage = `Usage: npm run admin -- <command> [options] [--json] [--stage NAME]

Commands:
  create-business --name N [--service-provider] [--no-api-access] [--verification-level N]
  create-user     --phone P [--first-name F] [--last-name L] [--email E] [--business-name N]
                  a person who signs in by phone; with --business-name, the business they own
                  (level 0, no API access) with its first store
  create-store    --business ID --name N [--country CC]   (a UEMOA country; CI by default)
  create-device   --store ID --device-id ID
                  registers a soundbox and prints, once, how it connects: on the local host the
                  broker's address and a password; with --stage an IoT thing and its certificate
  create-key      --business ID [--kind merchant|platform] [--store ID] [--name N]
  link            --provider ID --merchant ID   (the provider may then act for the merchant)
  set-webhook     --business ID --url URL [--events E1,E2] [--name N]
                  replaces the business's subscription; prints its secret, shown only here
  credit          --store ID --amount CENTS [--entry-id ID]   (sandbox stages only)
  credit-sms      --business ID --segments N [--entry-id ID]   top up the SMS balance
                  (the same --entry-id again changes nothing)
  retire-business --business ID
                  turns its API access off and removes its webhook subscription; its ledger
                  entries stay (the smoke test's throwaway businesses end this way)
  put-provider-secret --provider wave|mtn|pawapay|smileid --from-file FILE   (with --stage only)
                  puts the provider's credentials (JSON, read from FILE, or - for standard input)
                  into the stage's secret, created empty by the stack, after checking each field
                  (smileid: {"partnerId", "apiKey"}, on a stage whose identityVendor is smileid)
  audit           recompute the books; exits 1 on any break
  orphan-collections
                  collections a provider reported as paid that completed no payment request (a
                  payer who paid twice), with their refund to the payer: refunding, refunded or
                  refund_failed (those are the operator's to settle), and what payers are still owed
  migrate-payouts gives each payout recorded before payouts said what they settle (a pending
                  transfer, refund or orphan's refund) its payout, so callbacks and the sweep find
                  it; run once after deploying that version (again changes nothing)
  migrate-statements
                  fills the statement counters of the days before the ledger kept them, from the
                  journal; run once after deploying that version (again finds nothing to do)

--stage names an entry of the stage registry (context.stages in cdk.json); --stage local, or no
--stage, acts on the local host's data (DATA_DIR, default .data/), where webhooks may
go to http://localhost; with --stage they must go to a public https address.`;

class UsageError extends Error {}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    json: { type: 'boolean', default: false },
    stage: { type: 'string' },
    name: { type: 'string' },
    business: { type: 'string' },
    store: { type: 'string' },
    country: { type: 'string' },
    'device-id': { type: 'string' },
    kind: { type: 'string' },
    amount: { type: 'string' },
    segments: { type: 'string' },
    'entry-id': { type: 'string' },
    provider: { type: 'string' },
    phone: { type: 'string' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
    email: { type: 'string' },
    'business-name': { type: 'string' },
    merchant: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'string' },
    'service-provider': { type: 'boolean', default: false },
    'no-api-access': { type: 'boolean', default: false },
    'verification-level': { type: 'string' },
    'from-file': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

function required(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** The deployed stage the command acts on, from the registry; undefined for the local host. */
function deployedStage(): StageEntry | undefined {
  if (values.stage === undefined || values.stage === localStageName) return undefined;
  try {
    return stageEntry(readRegistryFile(), values.stage);
  } catch (error) {
    if (error instanceof StageRegistryError) throw new UsageError(error.message);
    throw error;
  }
}

/** Connects to the chosen data: a deployed stage, the running local host, or the local files. */
async function connect(stage: StageEntry | undefined): Promise<{ stop(): Promise<void> } | undefined> {
  if (stage) {
    process.env.TABLE_NAME = tableNameForStage(stage.name);
    // The stage's own region, whatever the operator's profile defaults to.
    process.env.AWS_REGION = stage.region;
    // set-webhook encrypts the new secret with the stage's key, by its alias.
    process.env.WEBHOOK_SECRETS_KEY_ID = webhookSecretsKeyAlias(stage.name);
    return undefined;
  }
  const dataDir = localDataDir();
  const running = readLocalConfig(dataDir);
  if (running && (await answers(running.endpoints.dynamodb))) {
    useLocalAws(running.endpoints, running.tableName);
    return undefined;
  }
  // The local host is not running: open its data files with a DynamoDB Local of our own, and
  // its webhook-secrets key with a KMS stand-in of our own.
  const dynamodb = await startDynamoDbLocal({ dataDir: `${dataDir}/dynamodb` });
  const kms = await startKmsStandIn({ keyMaterial: localKeyMaterial(dataDir) });
  useLocalAws({ dynamodb: dynamodb.endpoint, kms: kms.endpoint }, localTableName);
  await ensureTable(new DynamoDBClient({}), localTableName);
  return {
    stop: async () => {
      await kms.stop();
      await dynamodb.stop();
    },
  };
}

/**
 * Whether the host's DynamoDB Local answers. A stopped host refuses the connection at once; a host
 * that is running but busy (a loaded machine, a test run) may take seconds, and opening its data
 * files beside it with a second DynamoDB Local would fail, so a slow answer is waited for.
 */
async function answers(endpoint: string): Promise<boolean> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await fetch(endpoint, { signal: AbortSignal.timeout(5000) });
      return true;
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (code === 'ECONNREFUSED' || Date.now() > deadline) return false;
    }
  }
}

async function run(
  command: string | undefined,
  stage: StageEntry | undefined,
): Promise<Record<string, unknown>> {
  // Imported after connect(): these modules build their AWS clients from the environment.
  const { getBusiness, createBusiness } = await import('#shared/data/business.ts');
  const { createStore } = await import('#shared/data/store.ts');
  const { deviceIdPattern, registerDevice } = await import('#shared/data/device.ts');
  const { createApiKey } = await import('#shared/data/api-key.ts');
  const { BusinessNotFound } = await import('#shared/errors/businesses.ts');

  switch (command) {
    case 'create-business': {
      const level = values['verification-level'];
      const verificationLevel = level === undefined ? (values['no-api-access'] ? 0 : 1) : Number(level);
      if (!Number.isInteger(verificationLevel) || verificationLevel < 0 || verificationLevel > 3) {
        throw new UsageError('--verification-level must be an integer from 0 to 3');
      }
      const { business } = await createBusiness({
        name: required('name'),
        apiAccessEnabled: !values['no-api-access'],
        isServiceProvider: values['service-provider'],
        verificationLevel,
      });
      return { businessId: business.id };
    }
    case 'create-user': {
      const { normalisePhoneNumber } = await import('#shared/domain/phone-numbers.ts');
      const phone = normalisePhoneNumber(required('phone'));
      if (!phone) throw new UsageError('--phone must be a mobile number (+225…, +221…, or an Ivorian 07…)');
      const owner = {
        phone,
        firstName: values['first-name'] ?? 'Awa',
        lastName: values['last-name'] ?? 'Koné',
        email: values.email,
      };
      const businessName = values['business-name'];
      if (!businessName) {
        const { createUser } = await import('#shared/data/user.ts');
        return { userId: (await createUser(owner)).id, phone };
      }
      const { createOwnedBusiness } = await import('#shared/operations/service-providers.ts');
      const created = await createOwnedBusiness({
        owner,
        business: { name: businessName },
        storeName: businessName,
      });
      return { userId: created.user.id, phone, businessId: created.business.id, storeId: created.store.id };
    }
    case 'create-store': {
      const { defaultCountry, isUemoaCountry, uemoaCountries } = await import(
        '#shared/domain/uemoa-countries.ts'
      );
      const country = values.country ?? defaultCountry;
      if (!isUemoaCountry(country))
        throw new UsageError(`--country must be one of ${uemoaCountries.join(', ')}`);
      const store = await createStore({ businessId: required('business'), name: required('name'), country });
      return { storeId: store.id };
    }
    case 'create-device': {
      const deviceId = required('device-id');
      if (!deviceIdPattern.test(deviceId)) {
        throw new UsageError('--device-id must be 1 to 128 letters, digits, ":", "_" or "-"');
      }
      const storeId = required('store');
      const businessId = await businessOfStore(storeId);
      const device = await registerDevice({ businessId, storeId, deviceId });
      return (await deviceProvisioning({ deviceId: device.id, storeId, businessId })) as unknown as Record<
        string,
        unknown
      >;
    }
    case 'create-key': {
      const kind = values.kind ?? 'merchant';
      if (kind !== 'merchant' && kind !== 'platform')
        throw new UsageError('--kind must be merchant or platform');
      if (values.store && kind !== 'platform')
        throw new UsageError('--store scopes a platform key: add --kind platform');
      const business = await getBusiness(required('business'));
      if (!business) throw new BusinessNotFound();
      const { apiKey, secret } = await createApiKey({
        businessId: business.id,
        kind,
        storeId: values.store,
        memberId: business.ownerMemberId,
        name: values.name ?? `${kind} key`,
      });
      return { keyId: apiKey.id, key: secret };
    }
    case 'link': {
      const { linkMerchant } = await import('#shared/data/service-provider-link.ts');
      const link = await linkMerchant(required('provider'), required('merchant'));
      return { linkId: link.id };
    }
    case 'set-webhook': {
      const settings = webhookSettings(
        { url: required('url'), events: values.events },
        adminWebhookUrlPolicy(stage?.name),
      );
      if ('refused' in settings) throw new UsageError(settings.refused);
      const business = await getBusiness(required('business'));
      if (!business) throw new BusinessNotFound();
      const { saveSubscription } = await import('#shared/data/webhook-subscription.ts');
      const subscription = await saveSubscription(
        {
          businessId: business.id,
          url: settings.url,
          name: values.name ?? 'Operator',
          events: settings.events,
        },
        { replace: true },
      );
      return { subscriptionId: subscription.id, secret: subscription.secret };
    }
    case 'credit': {
      if (stage?.kind === 'production') throw new UsageError('credit adds test money: not on production');
      const amount = Number(required('amount'));
      if (!Number.isSafeInteger(amount) || amount <= 0)
        throw new UsageError('--amount must be a positive whole number of cents');
      const { creditStore } = await import('#shared/operations/credit.ts');
      return creditStore(required('store'), amount, values['entry-id']);
    }
    case 'credit-sms': {
      const segments = Number(required('segments'));
      if (!Number.isSafeInteger(segments) || segments <= 0 || segments > 10_000_000)
        throw new UsageError('--segments must be a whole number from 1 to 10000000');
      const business = await getBusiness(required('business'));
      if (!business) throw new BusinessNotFound();
      const { creditSmsBalance } = await import('#shared/operations/messages.ts');
      return creditSmsBalance(business.id, segments, values['entry-id']);
    }
    case 'retire-business': {
      const businessId = required('business');
      const { disableApiAccess } = await import('#shared/data/business.ts');
      if (!(await disableApiAccess(businessId))) throw new BusinessNotFound();
      const { getSubscription, deleteSubscription } = await import('#shared/data/webhook-subscription.ts');
      const subscription = await getSubscription(businessId);
      if (subscription) await deleteSubscription(businessId, subscription.id);
      return { businessId, apiAccessEnabled: false, webhookSubscriptionRemoved: subscription !== undefined };
    }
    case 'put-provider-secret': {
      if (!stage)
        throw new UsageError(
          'put-provider-secret needs --stage: the local host reads providers from variables',
        );
      const { isFilledSecret, newSecretsManagerClient, putProviderSecret } = await import(
        './admin-secret.ts'
      );
      const provider = required('provider');
      if (!isFilledSecret(provider)) throw new UsageError('--provider must be wave, mtn, pawapay or smileid');
      const file = required('from-file');
      // From a file or standard input, never an argument: a key typed on the command line stays
      // in the shell's history.
      const text = readFileSync(file === '-' ? 0 : file, 'utf8').trim();
      return putProviderSecret(newSecretsManagerClient(stage), stage, provider, text);
    }
    case 'audit': {
      const { auditLedger } = await import('#shared/audit/ledger-audit.ts');
      const report = await auditLedger();
      if (!report.ok) process.exitCode = 1;
      return report as unknown as Record<string, unknown>;
    }
    case 'orphan-collections': {
      const { orphanCollectionsReport } = await import('#shared/operations/orphan-collections.ts');
      return (await orphanCollectionsReport()) as unknown as Record<string, unknown>;
    }
    case 'migrate-payouts': {
      const { migratePayouts } = await import('#shared/settlement/payout-migration.ts');
      return { ...(await migratePayouts()) };
    }
    case 'migrate-statements': {
      const { migrateStatementCounters } = await import('#shared/audit/statement-migration.ts');
      return { ...(await migrateStatementCounters()) };
    }
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'a command is required');
  }
}

/** The device's IoT thing and certificate on a stage; its broker password on the local host. */
async function deviceProvisioning(device: { deviceId: string; storeId: string; businessId: string }) {
  const { localDeviceProvisioning, newIotClient, provisionIotThing } = await import('./admin-device.ts');
  const stage = deployedStage();
  if (stage) return provisionIotThing(newIotClient(), stage, device);
  const { issueDeviceCredentials } = await import('./local/device-credentials.ts');
  const dataDir = localDataDir();
  const brokerUrl =
    readLocalConfig(dataDir)?.endpoints.mqtt ?? `mqtt://127.0.0.1:${process.env.MQTT_PORT ?? 1883}`;
  return localDeviceProvisioning(
    device.deviceId,
    brokerUrl,
    issueDeviceCredentials(dataDir, device.deviceId),
  );
}

/** A store is addressed by id alone here; its business is found through the store index. */
async function businessOfStore(storeId: string): Promise<string> {
  const { findStoreBusiness } = await import('#shared/data/store.ts');
  const { StoreNotFound } = await import('#shared/errors/businesses.ts');
  const businessId = await findStoreBusiness(storeId);
  if (!businessId) throw new StoreNotFound();
  return businessId;
}

function print(result: Record<string, unknown>) {
  if (values.json) {
    console.log(JSON.stringify(result));
    return;
  }
  for (const [name, value] of Object.entries(result)) {
    console.log(`${name}: ${typeof value === 'object' ? JSON.stringify(value, null, 2) : value}`);
  }
}

if (values.help) {
  console.log(usage);
  process.exit(0);
}
let local: { stop(): Promise<void> } | undefined;
let exitCode = 0;
try {
  const stage = deployedStage();
  local = await connect(stage);
  print(await run(positionals[0], stage));
  exitCode = Number(process.exitCode ?? 0);
} catch (error) {
  exitCode = error instanceof UsageError ? 2 : 1;
  const message = error instanceof Error ? error.message : String(error);
  if (values.json) console.error(JSON.stringify({ error: message }));
  else
    console.error(
      error instanceof UsageError
        ? `${message}\n\n${usage}`
        : error instanceof JavaMissing
          ? message
          : `error: ${message}`,
    );
} finally {
  await local?.stop();
}
process.exit(exitCode);
