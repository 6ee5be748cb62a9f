import { endpoints } from '#shared/api/all-endpoints.ts';
import { deviceRules } from '#shared/catalogue/device-rules.ts';
import { workers } from '#shared/catalogue/queue-workers.ts';
import { queues } from '#shared/catalogue/queues.ts';
import { schedules } from '#shared/catalogue/schedules.ts';

/**
 * Names of a stage's resources. Deterministic, so the admin command can find a deployed stage's
 * table from the stage name alone (`npm run admin -- --stage dev ...`).
 */
export const serviceName = 'partner-payments';

export const stackName = (stage: string) => `${serviceName}-${stage}`;

export const tableNameForStage = (stage: string) => `${serviceName}-${stage}`;

/** The key the sandbox provider signs callbacks with; sandbox stages only. */
export const sandboxProviderSecretName = (stage: string) => `${stackName(stage)}-sandbox-provider`;

/** A live provider's credentials (JSON), which operators put in after the first deploy. */
export const providerSecretName = (stage: string, adapter: string) =>
  `${stackName(stage)}-${adapter}-provider`;

/** The topic every alarm of the stage notifies. */
export const alarmTopicName = (stage: string) => `${stackName(stage)}-alarms`;

/** The KMS key that encrypts webhook signing secrets, by an alias the admin command can name. */
export const webhookSecretsKeyAlias = (stage: string) => `alias/${stackName(stage)}-webhook-secrets`;

/** Production's customer-managed key of the table and its backups. */
export const tableKeyAlias = (stage: string) => `alias/${stackName(stage)}-table`;

/** The stage's backup vault, and the vault its backups are copied to. */
export const backupVaultName = (stage: string) => `${stackName(stage)}-backups`;
export const backupCopyVaultName = (stage: string) => `${stackName(stage)}-backup-copies`;

/** The role operators assume to run the admin command against a deployed stage. */
export const operatorRoleName = (stage: string) => `${stackName(stage)}-operator`;

/** A queue's dead-letter queue is named after it, on AWS and on the local host. */
export const deadLetterQueueName = (queueName: string) => `${queueName}-dlq`;

/** A function's physical name, and the name of its EventBridge rule when it runs on a schedule. */
export const functionNameFor = (stage: string, name: string) => `${stackName(stage)}-${name}`;

/** `sendSms` → `SendSms`: construct ids from the declared functions' names. */
export const pascalCase = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** The services' own limits on the names the stack gives. */
const limits = {
  lambdaFunction: 64,
  eventBridgeRule: 64,
  sqsQueue: 80,
  kmsAlias: 256,
  dashboard: 255,
  backupVault: 50,
  iamRole: 64,
};

/**
 * Every physical name the stage's stack gives, with its service's limit, derived from the route
 * table so that a route, worker, schedule or queue added later is checked with the rest.
 */
function physicalNames(stage: string): { what: string; name: string; limit: number }[] {
  const functionNames = [
    ...Object.keys(endpoints),
    ...Object.keys(workers),
    ...Object.keys(schedules),
    ...Object.keys(deviceRules),
  ];
  return [
    ...functionNames.map((name) => ({
      what: 'function',
      name: functionNameFor(stage, name),
      limit: limits.lambdaFunction,
    })),
    ...Object.keys(schedules).map((name) => ({
      what: 'schedule rule',
      name: functionNameFor(stage, name),
      limit: limits.eventBridgeRule,
    })),
    ...Object.keys(queues).map((name) => ({
      what: 'dead-letter queue',
      name: deadLetterQueueName(`${stackName(stage)}-${name}`),
      limit: limits.sqsQueue,
    })),
    { what: 'KMS alias', name: webhookSecretsKeyAlias(stage), limit: limits.kmsAlias },
    { what: 'backup vault', name: backupCopyVaultName(stage), limit: limits.backupVault },
    { what: 'IAM role', name: operatorRoleName(stage), limit: limits.iamRole },
    { what: 'dashboard', name: stackName(stage), limit: limits.dashboard },
  ];
}

/**
 * Refuses a stage whose name would make any resource name too long, before anything is built,
 * naming the resource and the longest stage name that fits.
 */
export function checkNameLimits(stage: string): void {
  let tightest: { what: string; name: string; limit: number } | undefined;
  for (const entry of physicalNames(stage)) {
    const room = entry.limit - entry.name.length;
    if (!tightest || room < tightest.limit - tightest.name.length) tightest = entry;
  }
  if (!tightest || tightest.name.length <= tightest.limit) return;
  const longestStage = stage.length - (tightest.name.length - tightest.limit);
  throw new Error(
    `Stage name "${stage}" is too long: the ${tightest.what} name ${tightest.name} would be ${tightest.name.length} characters, over the limit of ${tightest.limit}. Stage names may have at most ${longestStage} characters with the functions declared now.`,
  );
}
/**
 * The IoT thing type of the stage's soundboxes. IoT Core's registry and topics are account-wide:
 * production's is `SoundBoxQrTerminal` itself; another stage in the same account gets its own
 * type, so that deploying it never collides with production's.
 */
export const deviceThingTypeName = (stage: string, production: boolean) =>
  production ? 'SoundBoxQrTerminal' : `SoundBoxQrTerminal-${stage}`;

/** The IoT policy attached to every soundbox's certificate. */
export const devicePolicyName = (stage: string) => `${stackName(stage)}-soundbox`;
