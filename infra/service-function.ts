import path from 'node:path';
import { Duration, type RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import {
  type IRole,
  ManagedPolicy,
  Policy,
  PolicyStatement,
  Role,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  Architecture,
  type CfnFunction,
  ParamsAndSecretsLayerVersion,
  ParamsAndSecretsLogLevel,
  ParamsAndSecretsVersions,
  Runtime,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { nodejsFunctionBundling } from '#infra/bundling.ts';
import { functionScopeOf, rootStackOf } from '#infra/function-groups.ts';
import { acknowledge } from '#infra/nag.ts';
import { serviceName } from '#infra/naming.ts';
import { projectRoot } from '#infra/paths.ts';
import {
  webhookSecretContextKeys,
  webhookSecretPurpose,
  webhookSecretsKeyVariable,
} from '#shared/aws/kms.ts';
import type { AwsAccess, TableAction } from '#shared/catalogue/access.ts';
import { type QueueDefinition, type QueueName, queues, queueUrlVariable } from '#shared/catalogue/queues.ts';
import { tableDefinition } from '#shared/data/table-definition.ts';
import { soundboxTopicPrefix } from '#shared/domain/soundbox.ts';
import { smileIdSecretVariable } from '#shared/identity/smile-id-secret.ts';
import {
  adapterSecretVariable,
  type LiveAdapterName,
  payoutCallbackAdapters,
} from '#shared/providers/adapters.ts';
import { smsConfigurationSetVariable } from '#shared/sms/port.ts';

/** The AWS resources an `access` list can name. */
export interface ServiceResources {
  /** The stage's name: device topics are under it (`<stage>/soundbox/`). */
  readonly stageName?: string;
  readonly table: ITable;
  /** The stage's queues; sandbox-only ones are missing on production. */
  readonly queues: ReadonlyMap<QueueName, IQueue>;
  /** The key the sandbox provider signs its callbacks with; missing on production. */
  readonly sandboxProviderSecret?: ISecret;
  /** The KMS key of webhook signing secrets. */
  readonly webhookSecretsKey?: IKey;
  /** The SMS configuration set whose event destination reports deliveries; production only. */
  readonly smsConfigurationSet?: { readonly name: string; readonly arn: string };
  /** Where escrow holds are scheduled to end: the group, the function invoked, the role it is invoked with. */
  readonly escrowExpiry?: EscrowExpiryResources;
  /** The credentials of each live provider the stage routes to. */
  readonly providerSecrets?: ReadonlyMap<LiveAdapterName, ISecret>;
  /** Smile ID's partner id and key, where it checks identities; missing where the sandbox does. */
  readonly identitySecret?: ISecret;
}

export interface EscrowExpiryResources {
  readonly groupName: string;
  readonly functionArn: string;
  readonly role: IRole;
}

/** `secretValue('SANDBOX_PROVIDER_SECRET')` looks for the secret's ARN here. */
export const sandboxProviderSecretArnVariable = 'SANDBOX_PROVIDER_SECRET_ARN';

/**
 * The AWS Parameters and Secrets Lambda Extension, through which `secretValue` reads a secret
 * (shared/aws/secrets.ts): only functions granted a secret get it, as an extension lengthens every
 * cold start. Its cache keeps each secret 60 s: a provider key the operator rotates is used by
 * every function within a minute, and a busy execution environment reads each secret from Secrets
 * Manager at most once a minute (~43,000 reads a month, ~$0.22 per environment and secret, each a
 * Secrets Manager round trip added to one request). The 300 s maximum would cut those reads to a
 * fifth but keep the old key in use five minutes after a rotation. The extension logs warnings and errors only: a
 * failed read (access denied, no such secret) shows there with its cause, its routine lines do not.
 */
const secretsExtension = ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, {
  cacheEnabled: true,
  secretsManagerTtl: Duration.seconds(60),
  logLevel: ParamsAndSecretsLogLevel.WARN,
});

/** How the function is invoked, which decides where a failed invocation ends up. */
export type InvokedBy = 'api' | 'queue' | 'schedule' | 'iotRule' | 'scheduler' | 'stream';

/** Why no function has an asynchronous-invocation DLQ: each kind's failures already land somewhere. */
const noDeadLetterQueueReason: Record<InvokedBy, string> = {
  api: 'Invoked synchronously by API Gateway: the caller gets the error; a Lambda DLQ catches asynchronous invocations only.',
  queue:
    "Invoked synchronously by an SQS event source mapping: a failed message returns to its queue and goes to the queue's own dead-letter queue after maxReceiveCount.",
  iotRule:
    "Invoked by an IoT rule with a device's heartbeat or connection event: each is superseded by the device's next one (heartbeats every 30 s), so one lost is corrected within a minute, and the function's Errors alarm reports failures.",
  stream:
    "Invoked synchronously by a DynamoDB stream event source mapping: a failing record is retried, then sent to the mapping's on-failure queue.",
  schedule:
    "Each run re-reads what is left to do: a failed run's work is done by the next run, and the function's Errors alarm reports the failure.",
  scheduler:
    "Invoked by EventBridge Scheduler's one-time schedules, which retry a failed invocation themselves; one that still fails raises the schedule group's alarm, and the escrow sweep ends the hold later.",
};

export interface ServiceFunctionProps {
  /** Entry file relative to the project root, exporting `handler` (a route's or a worker's). */
  readonly entry: string;
  readonly invokedBy: InvokedBy;
  /** Physical function name; also names its log group. */
  readonly functionName: string;
  readonly access: readonly AwsAccess[];
  readonly resources: ServiceResources;
  readonly timeout: Duration;
  /** Sandbox stages (every stage but production) tell the code so with SANDBOX=true. */
  readonly sandbox: boolean;
  readonly logRetention: RetentionDays;
  readonly logRemovalPolicy: RemovalPolicy;
  /** The stage's settings (fees, ceilings, public URL), the same for every function. */
  readonly stageEnvironment?: Readonly<Record<string, string>>;
  /** Files of installed packages (`package/path`) copied beside the bundle, read at run time. */
  readonly files?: readonly string[];
}

/**
 * Under API Gateway's 29 s integration limit, so a stuck call ends as a logged function timeout
 * (with the request id) instead of the gateway giving up while the function runs on. Normal
 * requests take tens of milliseconds; 10 s leaves room for the SDK's retries.
 */
export const apiFunctionTimeout = Duration.seconds(10);

/**
 * A streamed page's function (the CSV export) runs as long as its endpoint declares, and its
 * integration waits one minute more, so the function's own timeout ends it first, logged: both
 * within the 15 minutes API Gateway allows a streamed answer.
 */
export const streamedFunctionTimeout = (route: { streams?: { timeoutMinutes: number } }) =>
  route.streams ? Duration.minutes(route.streams.timeoutMinutes) : undefined;
export const streamedIntegrationTimeout = (route: { streams?: { timeoutMinutes: number } }) =>
  route.streams ? Duration.minutes(Math.min(15, route.streams.timeoutMinutes + 1)) : undefined;

/**
 * Lambda's guidance for SQS event sources: a visibility timeout of at least six times the
 * function's timeout, so a batch whose invocation was throttled and retried is not received again
 * by another poller while it is still being handled.
 */
export function workerFunctionTimeout(queue: QueueDefinition): Duration {
  const seconds = Math.floor(queue.visibilityTimeoutSeconds / 6);
  if (seconds < 1) {
    throw new Error(
      `A visibility timeout of ${queue.visibilityTimeoutSeconds} s leaves its worker no time: give the queue at least 6 s`,
    );
  }
  return Duration.seconds(seconds);
}

/**
 * A scheduled run ends before the next is due (schedules run every minute at most often), so runs
 * of one schedule do not pile up; each bounds its own work to fit.
 */
export const scheduledFunctionTimeout = Duration.seconds(50);

/** Lambda's own limit on function names. */
const maxFunctionNameLength = 64;

/**
 * A function of the service, behind a route or fed by a queue, with every default in one place.
 * Its role starts empty and gets exactly the entry's `access`, its own log group, and X-Ray.
 */
export class ServiceFunction extends NodejsFunction {
  /** Whether the function belongs to a sandbox stage, where every sandbox-only resource exists. */
  readonly sandbox: boolean;

  constructor(stack: Construct, id: string, props: ServiceFunctionProps) {
    if (props.functionName.length > maxFunctionNameLength) {
      throw new Error(
        `Function name ${props.functionName} is longer than ${maxFunctionNameLength} characters: shorten the stage, route or worker name`,
      );
    }
    // Asked for in the stage's stack, the function goes into its group's last nested stack, or
    // the group's next when that one is full (infra/function-groups.ts): every stack stays under
    // CloudFormation's 500 resources.
    const scope = functionScopeOf(stack, props.entry);
    // The extension is a creation prop: the secrets the access list reads decide it, and the same
    // list is granted below, so neither comes without the other.
    const secrets = [...new Set(props.access)].flatMap((access) =>
      secretsReadWith(access, props.resources, { sandbox: props.sandbox, path: `${scope.node.path}/${id}` }),
    );
    // Both are handed to the function at creation, so they are built beside it rather than inside.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      logGroupName: `/aws/lambda/${props.functionName}`,
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    // A role of our own instead of AWSLambdaBasicExecutionRole, whose log permissions cover every
    // log group of the account: this one may write to its own group only.
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    });

    super(scope, id, {
      functionName: props.functionName,
      entry: path.join(projectRoot, props.entry),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
      // DESIGN pins Node 22 so the bundles run on the same major as the local host and the tests.
      runtime: Runtime.NODEJS_22_X,
      // Graviton: about 20% cheaper per GB-second than x86 for the same work; nothing native is bundled.
      architecture: Architecture.ARM_64,
      // Lambda allots CPU in proportion to memory (one vCPU at 1,769 MB), and a cold start (parsing
      // the bundle, the first TLS handshake) is CPU-bound: 512 MB gives it twice the CPU of 256 MB
      // although the functions use far less memory. Warm requests mostly wait on DynamoDB, so more
      // memory would cost more without answering much faster.
      memorySize: 512,
      timeout: props.timeout,
      role,
      logGroup,
      environment: {
        POWERTOOLS_SERVICE_NAME: serviceName,
        ...(props.sandbox ? { SANDBOX: 'true' } : {}),
        ...props.stageEnvironment,
      },
      bundling: { ...nodejsFunctionBundling(), ...copiedFiles(props.files) },
      ...(secrets.length > 0 ? { paramsAndSecrets: secretsExtension } : {}),
    });

    this.sandbox = props.sandbox;
    logGroup.grantWrite(role);
    grantSecretReads(this, secrets);
    const tableActions = [...new Set(props.access)].filter(isTableAccess);
    if (tableActions.length > 0) grantTable(this, props.resources.table, tableActions);
    for (const access of new Set(props.access)) grantAccess(this, access, props.resources);

    // Active tracing is set on the resource rather than with `tracing`, which would add X-Ray's
    // `Resource: *` statement to the role's main policy, where acknowledging it would also hide any
    // other `*` grant added there later. It comes from one managed policy of the stage's top stack,
    // holding nothing else and acknowledged alone (one policy per function would cost ~50
    // resources).
    (this.node.defaultChild as CfnFunction).tracingConfig = { mode: 'Active' };
    role.addManagedPolicy(tracingPolicyOf(rootStackOf(scope)));
    const runtimeReason =
      'DESIGN pins nodejs22.x to match the Node 22 that runs the local host and the tests.';
    acknowledge(this, 'AwsSolutions-L1', runtimeReason);
    acknowledge(this, 'Serverless-LambdaLatestVersion', runtimeReason);
    acknowledge(this, 'Serverless-LambdaDLQ', noDeadLetterQueueReason[props.invokedBy]);
  }
}

const tracingPolicyId = 'FunctionTracingPolicy';

/** The stack's one policy letting functions send their traces to X-Ray. */
function tracingPolicyOf(stack: Stack): ManagedPolicy {
  const existing = stack.node.tryFindChild(tracingPolicyId);
  if (existing) return existing as ManagedPolicy;
  const policy = new ManagedPolicy(stack, tracingPolicyId, {
    description: 'Lets the functions send their traces to X-Ray',
    statements: [
      new PolicyStatement({
        actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
        resources: ['*'],
      }),
    ],
  });
  acknowledge(
    policy,
    'AwsSolutions-IAM5',
    'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions; this policy holds nothing else.',
    'Resource::*',
  );
  return policy;
}

/** A route's `files`, copied from node_modules into the asset next to `index.mjs`. */
function copiedFiles(files: readonly string[] | undefined) {
  if (!files?.length) return {};
  return {
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (inputDir: string, outputDir: string) =>
        files.map((file) => `cp "${path.join(inputDir, 'node_modules', file)}" "${outputDir}/"`),
    },
  };
}

const queueSendPrefix = 'queue:send:';

const isQueueSend = (access: AwsAccess): access is `queue:send:${QueueName}` =>
  access.startsWith(queueSendPrefix);

/**
 * The resource an access names, or undefined when the function is to go without it. Production has
 * no sandbox, so a sandbox-only resource is missing there and whatever names it gets neither the
 * grant nor the variable: using it would fail loudly for want of the variable. Missing anywhere
 * else, it is a mistake in the stack.
 */
function resourceFor<T>(
  fn: FunctionSite,
  resource: T | undefined,
  sandboxOnly: boolean,
  description: string,
): T | undefined {
  if (resource !== undefined || (sandboxOnly && !fn.sandbox)) return resource;
  throw new Error(`${fn.path} needs ${description}, which the stage does not have`);
}

/** What `resourceFor` needs of a function, known before the function is made. */
interface FunctionSite {
  readonly sandbox: boolean;
  /** The function's construct path, for errors. */
  readonly path: string;
}

const siteOf = (fn: ServiceFunction): FunctionSite => ({ sandbox: fn.sandbox, path: fn.node.path });

/** A secret a function may read, and the variable that hands it the secret's ARN. */
interface SecretRead {
  readonly secret: ISecret;
  readonly arnVariable: string;
}

/** The secrets an access lets a function read: none for an access that is not to a secret. */
function secretsReadWith(access: AwsAccess, resources: ServiceResources, fn: FunctionSite): SecretRead[] {
  switch (access) {
    case 'secret:sandboxProvider': {
      // The provider-callback route has this access on every stage, production included.
      const secret = resourceFor(fn, resources.sandboxProviderSecret, true, 'the sandbox provider secret');
      return secret ? [{ secret, arnVariable: sandboxProviderSecretArnVariable }] : [];
    }
    case 'secret:providers':
    case 'secret:providers:payoutCallbacks':
      // Per provider: every routed one's where the payment method (and so the adapter) is known
      // only per request, only those that call back about payouts where that is all the function
      // does; functions that never call a provider get none.
      return [...(resources.providerSecrets ?? [])]
        .filter(([adapter]) => access === 'secret:providers' || payoutCallbackAdapters.includes(adapter))
        .map(([adapter, secret]) => ({ secret, arnVariable: `${adapterSecretVariable[adapter]}_ARN` }));
    case 'secret:identity':
      // Only where Smile ID checks identities: the sandbox's check reads no secret.
      return resources.identitySecret
        ? [{ secret: resources.identitySecret, arnVariable: `${smileIdSecretVariable}_ARN` }]
        : [];
    default:
      return [];
  }
}

/** Grants the reads and hands the function each ARN where `secretValue` looks for it. */
function grantSecretReads(fn: ServiceFunction, reads: SecretRead[]): void {
  for (const { secret, arnVariable } of reads) {
    secret.grantRead(fn);
    fn.addEnvironment(arnVariable, secret.secretArn);
  }
}

/**
 * Grants one kind of access and gives the function what it needs to use it (the table's name, the
 * queue's URL, the secret's ARN), so a permission and its configuration cannot be added one without
 * the other. Every `AwsAccess` must be handled: adding a kind to the function catalogue fails
 * type-checking here until it gets its grant.
 */
function grantAccess(fn: ServiceFunction, access: AwsAccess, resources: ServiceResources): void {
  if (isQueueSend(access)) {
    const queueName = access.slice(queueSendPrefix.length) as QueueName;
    const queue = resourceFor(
      siteOf(fn),
      resources.queues.get(queueName),
      (queues[queueName] as QueueDefinition).sandboxOnly === true,
      `queue ${queueName}`,
    );
    if (!queue) return;
    queue.grantSendMessages(fn);
    fn.addEnvironment(queueUrlVariable(queueName), queue.queueUrl);
    return;
  }
  if (isTableAccess(access)) {
    // All of a function's table actions at once, in one statement: see grantTable.
    return;
  }
  switch (access) {
    case 'secret:sandboxProvider':
    case 'secret:providers':
    case 'secret:providers:payoutCallbacks':
    case 'secret:identity':
      // Granted with the extension they are read through, when the function is made.
      return;
    case 'sms:send':
      grantSmsSend(fn, resources);
      return;
    case 'schedule:escrowExpiry': {
      const expiry = resourceFor(
        siteOf(fn),
        resources.escrowExpiry,
        false,
        'the escrow expiry schedules',
      ) as EscrowExpiryResources;
      // Only the schedules of the stage's own group, and only the role made to invoke the expiry.
      grantInOwnPolicy(
        fn,
        'EscrowSchedulesPolicy',
        new PolicyStatement({
          actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
          resources: [
            Stack.of(fn).formatArn({
              service: 'scheduler',
              resource: 'schedule',
              resourceName: `${expiry.groupName}/*`,
            }),
          ],
        }),
        [`scheduler:schedule/${expiry.groupName}/*`],
        "One schedule per escrow, named at run time from its id: the grant is limited to the schedules of the stage's own escrow-expiry group.",
      );
      // The role may be handed to EventBridge Scheduler only: not to a function or an instance
      // that would run with it.
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['iam:PassRole'],
          resources: [expiry.role.roleArn],
          conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
        }),
      );
      fn.addEnvironment('ESCROW_SCHEDULE_GROUP', expiry.groupName);
      fn.addEnvironment('ESCROW_EXPIRY_FUNCTION_ARN', expiry.functionArn);
      fn.addEnvironment('ESCROW_SCHEDULER_ROLE_ARN', expiry.role.roleArn);
      return;
    }
    case 'key:webhookSecrets:encrypt':
    case 'key:webhookSecrets:decrypt': {
      const key = resourceFor(siteOf(fn), resources.webhookSecretsKey, false, 'the webhook secrets key');
      if (!key) return;
      // Exactly the one call each makes (no re-encrypt, no data keys), and only with the context
      // the code binds every webhook secret to (shared/aws/kms.ts): the key cannot be used for
      // anything but a business's webhook signing secret.
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: [access === 'key:webhookSecrets:encrypt' ? 'kms:Encrypt' : 'kms:Decrypt'],
          resources: [key.keyArn],
          conditions: {
            StringEquals: {
              [`kms:EncryptionContext:${webhookSecretContextKeys.purpose}`]: webhookSecretPurpose,
            },
            Null: { [`kms:EncryptionContext:${webhookSecretContextKeys.businessId}`]: 'false' },
          },
        }),
      );
      fn.addEnvironment(webhookSecretsKeyVariable, key.keyArn);
      return;
    }
    case 'device:push':
      grantDevicePush(fn, resourceFor(siteOf(fn), resources.stageName, false, "the stage's name") as string);
      return;
    default: {
      const unhandled: never = access;
      throw new Error(`No grant is defined for access ${String(unhandled)}`);
    }
  }
}

/**
 * Production sends through AWS End User Messaging SMS, with the stage's configuration set (whose
 * events report deliveries) and any origination identity of the account (the sender id or number
 * is chosen by the operator, outside the stack). Sandbox stages send nothing out: their gateway
 * only reports its delivery events on the events queue, which is all they are granted.
 */
const smsOriginationTypes = ['phone-number', 'pool', 'sender-id', 'opt-out-list'];

function grantSmsSend(fn: ServiceFunction, resources: ServiceResources): void {
  if (fn.sandbox) {
    const events = resources.queues.get('smsEvents');
    if (!events) throw new Error(`${fn.node.path} needs queue smsEvents, which the stage does not have`);
    events.grantSendMessages(fn);
    fn.addEnvironment(queueUrlVariable('smsEvents'), events.queueUrl);
    return;
  }
  const configurationSet = resources.smsConfigurationSet;
  if (!configurationSet)
    throw new Error(`${fn.node.path} needs the SMS configuration set, which the stage does not have`);
  const originations = smsOriginationTypes.map((type) =>
    Stack.of(fn).formatArn({ service: 'sms-voice', resource: type, resourceName: '*' }),
  );
  fn.addEnvironment(smsConfigurationSetVariable, configurationSet.name);
  grantInOwnPolicy(
    fn,
    'SmsSendPolicy',
    new PolicyStatement({
      actions: ['sms-voice:SendTextMessage'],
      resources: [configurationSet.arn, ...originations],
    }),
    smsOriginationTypes.map((type) => `sms-voice:${type}/*`),
    'SendTextMessage authorizes the origination identity too; the sender id or number the operator registers is not known to the stack, so any of the account and region is allowed, for this one action.',
  );
}

/** Publishing to the stage's soundbox topics only, the device being chosen per payment request. */
function grantDevicePush(fn: ServiceFunction, stage: string): void {
  // The SDK's default data-plane endpoint (data-ats.iot.<region>) is the account's own, so no
  // endpoint variable is needed.
  grantInOwnPolicy(
    fn,
    'DevicePushPolicy',
    new PolicyStatement({
      actions: ['iot:Publish'],
      resources: [
        Stack.of(fn).formatArn({
          service: 'iot',
          resource: 'topic',
          resourceName: `${soundboxTopicPrefix(stage)}*`,
        }),
      ],
    }),
    [`iot:topic/${soundboxTopicPrefix(stage)}*`],
    "Publishes to any soundbox device's topics: the device is chosen per payment request.",
  );
}

/**
 * A grant whose resources end in a wildcard, in a policy of its own, so that acknowledging its
 * findings covers this one statement and nothing added to the role later. `wildcards` are the
 * resources as `service:resource` after the account, which cdk-nag names with the stage's account
 * and region once the stack is pinned to them.
 */
function grantInOwnPolicy(
  fn: ServiceFunction,
  id: string,
  statement: PolicyStatement,
  wildcards: string[],
  reason: string,
): void {
  if (!fn.role) return;
  const policy = new Policy(fn, id, { roles: [fn.role], statements: [statement] });
  const stack = Stack.of(fn);
  const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
  const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
  for (const wildcard of wildcards) {
    const [service, resource] = wildcard.split(/:(.*)/s) as [string, string];
    acknowledge(
      policy,
      'AwsSolutions-IAM5',
      reason,
      `Resource::arn:<AWS::Partition>:${service}:${region}:${account}:${resource}`,
    );
  }
}

const isTableAccess = (access: AwsAccess): access is `table:${TableAction}` => access.startsWith('table:');

/**
 * Exactly the table actions the function declares, which are those its code uses (checked against
 * its bundle by test/infra/function-bundles.test.ts): no batch write or delete for a function that
 * never deletes. No `Scan` is declared by any: the ledger audit reads the whole table from the
 * admin command, with the operator role. Queries go to the table and to the indexes the table
 * definition declares, each named: no `index/*`, so an index added later is granted only once it
 * is declared.
 */
function grantTable(fn: ServiceFunction, table: ITable, access: readonly `table:${TableAction}`[]): void {
  const actions = access.map((granted) => `dynamodb:${granted.slice('table:'.length)}`);
  fn.addToRolePolicy(new PolicyStatement({ actions, resources: [table.tableArn] }));
  if (actions.includes('dynamodb:Query')) {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: tableDefinition.globalSecondaryIndexes.map(
          (index) => `${table.tableArn}/index/${index.name}`,
        ),
      }),
    );
  }
  if (table.encryptionKey) grantTableKey(fn, table, table.encryptionKey);
  fn.addEnvironment('TABLE_NAME', table.tableName);
}

/**
 * A table encrypted with a customer-managed key (production's) is read and written with the
 * caller's right to decrypt the table's key, which DynamoDB asks KMS for on the caller's behalf
 * (and caches for minutes). Only through DynamoDB, and only for this table: DynamoDB names the
 * table in the encryption context of each call, so the grant cannot decrypt anything else.
 * Encrypting the table's key is DynamoDB's own business, at creation, with CloudFormation's rights.
 */
function grantTableKey(fn: ServiceFunction, table: ITable, key: IKey): void {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['kms:Decrypt'],
      resources: [key.keyArn],
      conditions: {
        StringEquals: {
          'kms:ViaService': `dynamodb.${Stack.of(fn).region}.amazonaws.com`,
          'kms:EncryptionContext:aws:dynamodb:tableName': table.tableName,
        },
      },
    }),
  );
}
