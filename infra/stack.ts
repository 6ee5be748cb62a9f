import { ArnFormat, CfnOutput, Duration, RemovalPolicy, Size, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  EndpointType,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  type AlarmProps,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import {
  AttributeType,
  BillingMode,
  Operation,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnPolicy as CfnIotPolicy, CfnThingType, CfnTopicRule } from 'aws-cdk-lib/aws-iot';
import { Key } from 'aws-cdk-lib/aws-kms';
import { EventSourceMapping, FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { FilterPattern, LogGroup, MetricFilter, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnConfigurationSet } from 'aws-cdk-lib/aws-smsvoice';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription, SqsSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { GroupedLambdaIntegration, groupFunctionsOf } from '#infra/function-groups.ts';
import { acknowledge } from '#infra/nag.ts';
import {
  alarmTopicName,
  deadLetterQueueName,
  devicePolicyName,
  deviceThingTypeName,
  functionNameFor,
  providerSecretName,
  sandboxProviderSecretName,
  serviceName,
  stackName,
  tableNameForStage,
  webhookSecretsKeyAlias,
} from '#infra/naming.ts';
import {
  apiFunctionTimeout,
  type EscrowExpiryResources,
  ServiceFunction,
  type ServiceFunctionProps,
  scheduledFunctionTimeout,
  workerFunctionTimeout,
} from '#infra/service-function.ts';
import { liveAdaptersOf, providerRoutesOf } from '#infra/stage-config.ts';
import type { StageEntry } from '#infra/stage-registry.ts';
import { type EndpointName, endpointEntries } from '#shared/api/all-endpoints.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';
import { type DeviceRuleName, deviceRuleEntries } from '#shared/catalogue/device-rules.ts';
import { type WorkerName, workerEntries } from '#shared/catalogue/queue-workers.ts';
import { type QueueDefinition, type QueueName, queues, queueUrlVariable } from '#shared/catalogue/queues.ts';
import {
  type ScheduleName,
  type ScheduleTargetName,
  scheduleEntries,
  scheduleTargetEntries,
} from '#shared/catalogue/schedules.ts';
import { type StreamConsumerName, streamConsumerEntries } from '#shared/catalogue/stream-consumers.ts';
import { tableDefinition } from '#shared/data/table-definition.ts';
import { requestLimits } from '#shared/http/request-limits.ts';
import type { LiveAdapterName } from '#shared/providers/adapters.ts';

export interface PaymentsStackProps extends StackProps {
  /** The stage's entry of the registry in cdk.json, checked. */
  readonly stage: StageEntry;
}

/**
 * Stage-wide throttling, a token bucket per stage. Partner traffic is expected in the tens of
 * requests per second at peak; 100/s with bursts of 200 leaves it ample room while capping what a
 * runaway client can cost: a 200-request burst at ~100 ms each keeps ~20 executions busy, far
 * from the account's default 1,000 concurrent, and the stage stays well under the 10,000
 * requests/s that every API of the account and region shares. Above it, callers get 429 in the
 * spec's format and retry. Raise it from the 429 count in the access logs, not before.
 */
export const stageThrottling = { rateLimit: 100, burstLimit: 200 } as const;

/**
 * WAF rate limits over one-minute windows, derived from the stage's throttling so that no single
 * caller can exhaust it: an API key id, or an IP address, gets at most a fifth of the stage's
 * steady rate (20/s of 100/s). It takes five callers at their limit to reach the stage's own
 * throttle, where the per-IP limit was once so loose that two addresses did. The per-IP rule also
 * covers requests without a key id (public pages, scans of unknown routes).
 */
const callersToExhaustStage = 5;
const perCallerPerMinute = (stageThrottling.rateLimit * 60) / callersToExhaustStage;
export const wafRateLimits = {
  perApiKeyId: perCallerPerMinute,
  perIp: perCallerPerMinute,
  windowSeconds: 60,
  callersToExhaustStage,
} as const;

/**
 * AWS managed rule groups evaluated after the rate rules: common exploits (OWASP-style), known bad
 * inputs (Log4Shell, request smuggling...), and addresses Amazon's threat intelligence reports.
 */
export const managedRuleGroups = [
  'AWSManagedRulesCommonRuleSet',
  'AWSManagedRulesKnownBadInputsRuleSet',
  'AWSManagedRulesAmazonIpReputationList',
] as const;

/** The spec's error body. `message` is a VTL expression that yields a JSON string. */
const errorTemplate = (id: string, message: string) => `{"id":"${id}","message":${message},"extras":null}`;

/** API Gateway's own answers, in the spec's error format instead of `{"message": ...}`. */
export const gatewayResponses = [
  // Unsupported media type, access denied...: the status is kept, the message says which.
  { type: ResponseType.DEFAULT_4XX, id: 'bad_request', message: '$context.error.messageString' },
  { type: ResponseType.DEFAULT_5XX, id: 'internal_error', message: '"Internal server error"' },
  // A REST API answers an unknown route with 403 "Missing Authentication Token".
  {
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: '404',
    id: 'not_found',
    message: '"Route not found"',
  },
  {
    type: ResponseType.RESOURCE_NOT_FOUND,
    statusCode: '404',
    id: 'not_found',
    message: '"Route not found"',
  },
  {
    type: ResponseType.THROTTLED,
    statusCode: '429',
    id: 'too_many_requests',
    message: '"Too many requests"',
  },
  {
    type: ResponseType.REQUEST_TOO_LARGE,
    statusCode: '413',
    id: 'request_too_large',
    message: '"Request body too large"',
  },
  { type: ResponseType.WAF_FILTERED, statusCode: '403', id: 'forbidden', message: '"Forbidden"' },
  // Clients retry on 5xx, which is right for a timeout; the id is the spec's for server errors.
  {
    type: ResponseType.INTEGRATION_TIMEOUT,
    statusCode: '504',
    id: 'internal_error',
    message: '"The request timed out"',
  },
] as const;

/**
 * How long a dead-letter queue keeps a message. SQS counts it from the message's first enqueue, so
 * this must exceed the source queue's retention (4 days): a message then waits about ten days in
 * the dead-letter queue for someone to look at it and redrive it.
 */
export const deadLetterRetention = Duration.days(14);

/**
 * The API's 5xx alarm: the share of requests answered 5xx over one period, computed with metric
 * math from the Sum of 5XXError and the Sum of Count. A rate rather than a count so the alarm means
 * the same at night and at peak; no minimum volume, because on a payments API a single failed
 * request among a handful is worth a look.
 */
export const serverErrorRateAlarm = { percent: 1, period: Duration.minutes(5) } as const;

/**
 * Failed SMS over one period that raise the alarm. A wrong number now and then is the sender's
 * business; ten in five minutes is more than typos.
 */
export const smsFailureAlarm = { threshold: 10, period: Duration.minutes(5) } as const;

/**
 * Why a method has no API Gateway authorizer. Partner routes check API keys in the handler wrapper,
 * which must answer the spec's exact 401 and 403 bodies (an authorizer's denials come out as gateway
 * errors). Public routes have no key to check at all, each for its own reason.
 */
function authorizationReason(route: Endpoint): string {
  if (route.caller !== 'public') {
    return 'Integrators authenticate with API keys, checked by the handler wrapper (DESIGN §3), not with an authorizer or Cognito users.';
  }
  if (route.path.startsWith('/provider_callbacks/')) {
    return "Called by mobile-money providers, which hold no API key of ours: the handler accepts a callback only with the provider's valid signature.";
  }
  return 'A page a payer opens in a browser, who has no API key: it shows only the payment or link its unguessable id names, and acts only on that one.';
}

/**
 * The API's p99 above 2 s for 15 minutes: requests take tens of milliseconds and a cold start about
 * a second, so a sustained p99 over 2 s means something is slow, not that a container started.
 */
export const apiLatencyAlarm = { thresholdMs: 2000, period: Duration.minutes(5), periods: 3 } as const;

/**
 * A queued message older than an hour: a webhook's retries end about 31 minutes after its first
 * attempt (shared/domain/webhook-retry.ts) and a sandbox callback is sent within minutes, so an
 * hour-old message means its worker is failing, throttled or not keeping up.
 */
export const oldestMessageAlarmSeconds = 60 * 60;

/** The table operations the service makes; CloudWatch alarms take at most 10 metrics. */
const tableOperations = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.TRANSACT_GET_ITEMS,
];

/** SQS's own limit on queue names. */
const maxQueueNameLength = 80;

const pascalCase = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * One stage of the service: the table, the queues with their dead-letter queues, the REST API, one
 * function per route, one per worker and one per schedule (with its EventBridge rule). Sandbox-only
 * routes, queues, workers and schedules (the sandbox provider, test helpers) are left out of
 * production. The functions, and what is built beside them with `Stack.of(fn)` (alarms, rules,
 * permissions), sit in one nested stack per directory of functions/ (infra/function-groups.ts);
 * the rest is this stack's.
 */
export class PaymentsStack extends Stack {
  readonly table: Table;
  readonly queues: ReadonlyMap<QueueName, Queue>;
  /** Sandbox stages only: the key the sandbox provider signs callbacks with, and the service checks. */
  readonly sandboxProviderSecret: Secret | undefined;
  /** The credentials of each live provider the stage routes to. */
  readonly providerSecrets: ReadonlyMap<LiveAdapterName, Secret>;
  /** Every alarm of the stage notifies it; operators subscribe to it. */
  readonly alarmTopic: Topic;
  /** Encrypts webhook signing secrets in the table. */
  readonly webhookSecretsKey: Key;
  readonly api: RestApi;
  readonly functions: ReadonlyMap<EndpointName, ServiceFunction>;
  readonly workers: ReadonlyMap<WorkerName, ServiceFunction>;
  readonly scheduled: ReadonlyMap<ScheduleName, ServiceFunction>;
  /** The functions EventBridge Scheduler's one-time schedules invoke (escrow hold ends). */
  readonly scheduleTargets: ReadonlyMap<ScheduleTargetName, ServiceFunction>;
  /** The functions fed by the table's stream. */
  readonly streamConsumers: ReadonlyMap<StreamConsumerName, ServiceFunction>;
  /** Production only: where AWS End User Messaging SMS reports the delivery of each message. */
  readonly smsConfigurationSet: CfnConfigurationSet | undefined;
  /** The functions IoT rules invoke on devices' messages (presence). */
  readonly deviceRuleFunctions: ReadonlyMap<DeviceRuleName, ServiceFunction>;

  constructor(scope: Construct, id: string, props: PaymentsStackProps) {
    super(scope, id, props);
    groupFunctionsOf(this);
    const stage = props.stage.name;
    // The registry's kind decides, never the name: a stage called "production" may be a sandbox.
    const production = props.stage.kind === 'production';
    const removalPolicy = production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.table = new Table(this, 'Table', {
      tableName: tableNameForStage(stage),
      partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      stream: StreamViewType[tableDefinition.streamViewType],
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      // On every stage: a bad migration on staging is also worth undoing.
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: production,
      removalPolicy,
    });
    for (const index of tableDefinition.globalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }

    const stageQueues = new Map<QueueName, Queue>();
    for (const [queueName, definition] of Object.entries(queues) as [QueueName, QueueDefinition][]) {
      if (production && definition.sandboxOnly) continue;
      stageQueues.set(queueName, this.addQueue(stage, queueName, definition));
    }
    this.queues = stageQueues;

    this.sandboxProviderSecret = production
      ? undefined
      : new Secret(this, 'SandboxProviderSecret', {
          secretName: sandboxProviderSecretName(stage),
          description: `Signs the sandbox provider's callbacks to the service (${stage})`,
          // Alphanumeric, so it passes unchanged through environment variables and shell quoting.
          generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
          // Only sandbox stages have it, and a new one costs nothing but in-flight sandbox callbacks.
          removalPolicy: RemovalPolicy.DESTROY,
        });
    if (this.sandboxProviderSecret) {
      acknowledge(
        this.sandboxProviderSecret,
        'AwsSolutions-SMG4',
        'Sandbox-only signing key shared by our own functions alone: no third party holds a copy to rotate.',
      );
    }

    this.smsConfigurationSet = production ? this.addSmsDeliveryEvents(stage) : undefined;
    // The key policy leaves use to IAM: only the roles the route table grants it (the functions
    // that create subscriptions and send webhooks) and the account's administrators may use it.
    this.webhookSecretsKey = new Key(this, 'WebhookSecretsKey', {
      alias: webhookSecretsKeyAlias(stage),
      description: `Encrypts the webhook signing secrets of ${stackName(stage)}`,
      enableKeyRotation: true,
      // Without it the secrets in a retained table could never be read again.
      removalPolicy,
    });
    const providerRoutes = providerRoutesOf(props.stage.environment, production);
    const providerSecrets = new Map<LiveAdapterName, Secret>();
    for (const adapter of liveAdaptersOf(providerRoutes)) {
      const secret = new Secret(this, `${pascalCase(adapter)}ProviderSecret`, {
        secretName: providerSecretName(stage, adapter),
        description: `${adapter} API credentials of the ${stage} stage, as JSON (see the README's provider section)`,
        // Holds a placeholder until an operator puts the provider's keys in; never in the template.
        generateSecretString: { passwordLength: 32, excludePunctuation: true },
        removalPolicy: production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      });
      acknowledge(
        secret,
        'AwsSolutions-SMG4',
        'Keys issued by the provider in its own portal: rotated there, then put here by an operator.',
      );
      providerSecrets.set(adapter, secret);
    }
    this.providerSecrets = providerSecrets;

    const escrowExpiry = this.addEscrowExpirySchedules(stage);

    // What every function of the stage shares; each adds its entry, name, access and timeout.
    const functionDefaults = {
      resources: {
        table: this.table,
        queues: this.queues,
        sandboxProviderSecret: this.sandboxProviderSecret,
        escrowExpiry,
        ...(this.smsConfigurationSet
          ? {
              smsConfigurationSet: {
                name: this.smsConfigurationSet.configurationSetName as string,
                arn: this.smsConfigurationSet.attrArn,
              },
            }
          : {}),
        webhookSecretsKey: this.webhookSecretsKey,
        providerSecrets,
      },
      stageEnvironment: { ...props.stage.environment, PROVIDER_ROUTES: JSON.stringify(providerRoutes) },
      sandbox: !production,
      logRetention: production ? RetentionDays.THREE_MONTHS : RetentionDays.TWO_WEEKS,
      logRemovalPolicy: removalPolicy,
    } satisfies Partial<ServiceFunctionProps>;

    /** A function of the route table's that no API route invokes, named for the stage, with its alarms. */
    const backgroundFunction = (
      name: string,
      entry: { readonly entry: string; readonly access: ServiceFunctionProps['access'] },
      invokedBy: ServiceFunctionProps['invokedBy'],
      timeout: ServiceFunctionProps['timeout'],
    ) => {
      const functionName = functionNameFor(stage, name);
      const fn = new ServiceFunction(this, pascalCase(name), {
        ...functionDefaults,
        entry: entry.entry,
        invokedBy,
        functionName,
        access: entry.access,
        timeout,
      });
      this.addFunctionAlarms(fn, functionName);
      return { fn, functionName };
    };

    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      // Who called what and when, for disputes with integrators: kept longer on production.
      retention: production ? RetentionDays.ONE_YEAR : RetentionDays.TWO_WEEKS,
      removalPolicy,
    });

    this.api = new RestApi(this, 'Api', {
      restApiName: stackName(stage),
      description: `Partner Payments API (${stage})`,
      // Regional, so WAF's IP rule sees callers' addresses rather than CloudFront edges'.
      endpointTypes: [EndpointType.REGIONAL],
      // Answers of 1 KB and more are compressed for callers that accept it: the reference page's
      // viewer (1.7 MB) travels as about 0.5 MB, and lists shrink several times.
      minCompressionSize: Size.kibibytes(1),
      // Needed for execution logging; it is an account-wide setting that every stage re-asserts.
      cloudWatchRole: true,
      deployOptions: {
        stageName: stage,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            extendedRequestId: AccessLogField.contextExtendedRequestId(),
            requestTimeEpoch: AccessLogField.contextRequestTimeEpoch(),
            ip: AccessLogField.contextIdentitySourceIp(),
            userAgent: AccessLogField.contextIdentityUserAgent(),
            httpMethod: AccessLogField.contextHttpMethod(),
            resourcePath: AccessLogField.contextResourcePath(),
            path: AccessLogField.contextPath(),
            status: AccessLogField.contextStatus(),
            responseLength: AccessLogField.contextResponseLength(),
            responseLatency: AccessLogField.contextResponseLatency(),
            integrationLatency: AccessLogField.contextIntegrationLatency(),
            integrationStatus: AccessLogField.contextIntegrationStatus(),
            errorMessage: AccessLogField.contextErrorMessage(),
            errorType: AccessLogField.contextErrorResponseType(),
            wafStatus: AccessLogField.contextWafStatus(),
            xrayTraceId: AccessLogField.contextXrayTraceId(),
          }),
        ),
        tracingEnabled: true,
        // ERROR only: INFO logs every request's full execution trace, and the access log above and
        // the functions' own logs already cover normal traffic.
        loggingLevel: MethodLoggingLevel.ERROR,
        // Request and response bodies carry phone numbers and keys: never logged by the gateway.
        dataTraceEnabled: false,
        metricsEnabled: true,
        throttlingRateLimit: stageThrottling.rateLimit,
        throttlingBurstLimit: stageThrottling.burstLimit,
      },
    });
    for (const response of gatewayResponses) {
      this.api.addGatewayResponse(response.type.responseType, {
        type: response.type,
        ...('statusCode' in response ? { statusCode: response.statusCode } : {}),
        templates: { 'application/json': errorTemplate(response.id, response.message) },
      });
    }
    acknowledge(
      this.api,
      'AwsSolutions-APIG2',
      "Handlers validate with zod to answer the spec's 422 validation_error body.",
    );
    const cloudWatchRole = this.api.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole) {
      acknowledge(
        cloudWatchRole,
        'AwsSolutions-IAM4',
        "API Gateway's account-wide logging role needs to create log groups it names itself.",
        'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs',
      );
    }

    const functions = new Map<EndpointName, ServiceFunction>();
    for (const [routeName, route] of endpointEntries) {
      if (production && route.sandboxOnly) continue;
      const functionName = functionNameFor(stage, routeName);
      const fn = new ServiceFunction(this, pascalCase(routeName), {
        ...functionDefaults,
        entry: route.entry,
        invokedBy: 'api',
        functionName,
        access: route.access,
        ...('files' in route ? { files: route.files } : {}),
        timeout: apiFunctionTimeout,
      });
      this.addFunctionAlarms(fn, functionName);
      functions.set(routeName, fn);
      const method = this.api.root.resourceForPath(route.path).addMethod(
        route.method,
        // The console's test-invoke is not used; each function may be invoked by its method only.
        new GroupedLambdaIntegration(fn, stage),
      );
      const reason = authorizationReason(route);
      acknowledge(method, 'AwsSolutions-APIG4', reason);
      acknowledge(method, 'AwsSolutions-COG4', reason);
    }
    this.functions = functions;

    const workers = new Map<WorkerName, ServiceFunction>();
    for (const [workerName, worker] of workerEntries) {
      if (production && worker.sandboxOnly) continue;
      const queue = this.queues.get(worker.queue);
      if (!queue) {
        throw new Error(
          `Worker ${workerName} reads queue ${worker.queue}, which ${stage} does not have: a sandbox-only queue can feed sandbox-only workers only`,
        );
      }
      const { fn } = backgroundFunction(
        workerName,
        worker,
        'queue',
        workerFunctionTimeout(queues[worker.queue]),
      );
      // Failed records are reported one by one, so a batch's successes are not handled twice.
      const eventSource = new SqsEventSource(queue, {
        batchSize: worker.batchSize,
        reportBatchItemFailures: true,
      });
      fn.addEventSource(eventSource);
      for (const mapping of fn.node.children.filter((child) => child instanceof EventSourceMapping)) {
        acknowledge(
          mapping,
          'Serverless-LambdaEventSourceMappingDestination',
          "On-failure destinations are for stream sources; an SQS source's failed messages go to the queue's dead-letter queue after maxReceiveCount.",
        );
      }
      // The event source lets the worker consume its queue, visibility changes included (how a
      // worker sets when a failed message comes back); the URL is what those calls need.
      fn.addEnvironment(queueUrlVariable(worker.queue), queue.queueUrl);
      workers.set(workerName, fn);
    }
    this.workers = workers;

    const scheduled = new Map<ScheduleName, ServiceFunction>();
    for (const [scheduleName, schedule] of scheduleEntries) {
      if (production && schedule.sandboxOnly) continue;
      const { fn, functionName } = backgroundFunction(
        scheduleName,
        schedule,
        'schedule',
        scheduledFunctionTimeout,
      );
      const rule = new Rule(Stack.of(fn), `${pascalCase(scheduleName)}Schedule`, {
        ruleName: functionName,
        description: `Runs ${scheduleName} on ${schedule.expression}`,
        schedule: Schedule.expression(schedule.expression),
        targets: [new LambdaFunction(fn)],
      });
      acknowledge(
        rule,
        'Serverless-EventBusDLQ',
        'A schedule tick that cannot be delivered holds no data: the next tick does the same work, and the Errors alarm reports failing runs.',
      );
      scheduled.set(scheduleName, fn);
    }
    this.scheduled = scheduled;

    const scheduleTargets = new Map<ScheduleTargetName, ServiceFunction>();
    for (const [targetName, target] of scheduleTargetEntries) {
      scheduleTargets.set(
        targetName,
        backgroundFunction(targetName, target, 'scheduler', scheduledFunctionTimeout).fn,
      );
    }
    this.scheduleTargets = scheduleTargets;
    const streamConsumers = new Map<StreamConsumerName, ServiceFunction>();
    for (const [consumerName, consumer] of streamConsumerEntries) {
      if (production && consumer.sandboxOnly) continue;
      const { fn } = backgroundFunction(consumerName, consumer, 'stream', scheduledFunctionTimeout);
      fn.addEventSource(
        new DynamoEventSource(this.table, {
          startingPosition: StartingPosition.TRIM_HORIZON,
          batchSize: consumer.batchSize,
          filters: consumer.filters.map((filter) => FilterCriteria.filter(filter)),
          // A failing record is found by halving its batch, retried, and after the last retry
          // parked in a queue that alarms, instead of holding up its shard for the stream's 24 h.
          bisectBatchOnError: true,
          reportBatchItemFailures: true,
          retryAttempts: 10,
          onFailure: new SqsDlq(this.addStreamFailureQueue(stage, consumerName)),
        }),
      );
      const policy = fn.role?.node.tryFindChild('DefaultPolicy');
      if (policy) {
        acknowledge(
          policy,
          'AwsSolutions-IAM5',
          'dynamodb:ListStreams, which the stream event source mapping needs, supports no resource-level permissions; the stream itself is read on its ARN only.',
          'Resource::*',
        );
      }
      streamConsumers.set(consumerName, fn);
    }
    this.streamConsumers = streamConsumers;

    this.addSmsFailureAlarm(stage, workers);
    this.deviceRuleFunctions = this.addDevices(stage, production, (name, rule) => {
      const functionName = functionNameFor(stage, name);
      const fn = new ServiceFunction(this, pascalCase(name), {
        ...functionDefaults,
        invokedBy: 'iotRule',
        entry: rule.entry,
        functionName,
        access: rule.access,
        timeout: apiFunctionTimeout,
      });
      this.addFunctionAlarms(fn, functionName);
      return fn;
    });

    this.addWebAcl(stage, production, removalPolicy);

    this.addServerErrorRateAlarm(stage);
    this.addOperationalAlarms(stage);
    this.addDashboard(stage);
    this.alarmTopic = this.addAlarmTopic(stage);
    const alarmEmail = new EmailSubscription(props.stage.alarmEmail);
    this.alarmTopic.addSubscription(alarmEmail);
    const emailSubscription = this.alarmTopic.node.tryFindChild(props.stage.alarmEmail);
    if (emailSubscription) {
      acknowledge(
        emailSubscription,
        'Serverless-SNSRedrivePolicy',
        'A lost alarm e-mail loses no alarm: its state and history stay in CloudWatch, and OK/ALARM transitions are e-mailed again.',
      );
    }
    // Found rather than listed, so an alarm added later cannot be left silent by mistake.
    const notify = new SnsAction(this.alarmTopic);
    for (const construct of this.node.findAll()) {
      if (construct instanceof Alarm) {
        construct.addAlarmAction(notify);
        construct.addOkAction(notify);
      }
    }

    // Replaces RestApi's own output, whose name carries a hash that scripts would have to guess.
    this.api.node.tryRemoveChild('Endpoint');
    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarmTopic.topicArn,
      description: 'Subscribe to this topic to be told of every alarm of the stage',
    });
  }

  /**
   * The configuration set production sends SMS with, and its event destination: an SNS topic
   * (encrypted, with a key the SMS service may use) that delivers each event, raw, to the
   * `smsEvents` queue, whose worker moves the messages' statuses.
   */
  private addSmsDeliveryEvents(stage: string): CfnConfigurationSet {
    const events = this.queues.get('smsEvents');
    if (!events) throw new Error('The smsEvents queue is missing');
    const smsService = new ServicePrincipal('sms-voice.amazonaws.com');
    const key = new Key(this, 'SmsEventsKey', {
      description: `Encrypts the SMS delivery events of ${stackName(stage)}`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // The SMS service encrypts what it publishes with the topic's key.
    key.grant(smsService, 'kms:Decrypt', 'kms:GenerateDataKey*');
    const topic = new Topic(this, 'SmsEventsTopic', {
      topicName: `${stackName(stage)}-sms-events`,
      masterKey: key,
      enforceSSL: true,
    });
    const configurationSetName = `${stackName(stage)}-sms`;
    const configurationSetArn = this.formatArn({
      service: 'sms-voice',
      resource: 'configuration-set',
      resourceName: configurationSetName,
    });
    topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'SmsEventsOfThisStack',
        principals: [smsService],
        actions: ['sns:Publish'],
        resources: [topic.topicArn],
        conditions: {
          ArnLike: { 'aws:SourceArn': configurationSetArn },
          StringEquals: { 'aws:SourceAccount': this.account },
        },
      }),
    );
    const subscription = topic.addSubscription(new SqsSubscription(events, { rawMessageDelivery: true }));
    acknowledge(
      subscription,
      'Serverless-SNSRedrivePolicy',
      'SNS delivers to a queue of this stack, which SNS retries for days; the queue itself has a dead-letter queue for what its worker cannot record.',
    );
    const configurationSet = new CfnConfigurationSet(this, 'SmsConfigurationSet', {
      configurationSetName,
      eventDestinations: [
        {
          eventDestinationName: 'delivery-events',
          enabled: true,
          matchingEventTypes: ['TEXT_ALL'],
          snsDestination: { topicArn: topic.topicArn },
        },
      ],
    });
    configurationSet.node.addDependency(topic);
    return configurationSet;
  }

  /**
   * Messages that failed (refused before the carrier, or failed by it), counted from the workers'
   * `sms message failed` log lines. A few are the senders' typos; many in a row are a gateway,
   * sender id or carrier problem.
   */
  private addSmsFailureAlarm(stage: string, workers: ReadonlyMap<WorkerName, ServiceFunction>): void {
    const metric = { namespace: `${serviceName}/${stage}`, name: 'SmsFailed' };
    for (const workerName of ['sendSms', 'recordSmsEvents'] as const) {
      const fn = workers.get(workerName);
      if (!fn) continue;
      new MetricFilter(Stack.of(fn), `${pascalCase(workerName)}FailedFilter`, {
        logGroup: fn.logGroup,
        filterPattern: FilterPattern.stringValue('$.message', '=', 'sms message failed'),
        metricNamespace: metric.namespace,
        metricName: metric.name,
        metricValue: '1',
      });
    }
    new Alarm(this, 'SmsFailuresAlarm', {
      alarmName: `${stackName(stage)}-sms-failures`,
      alarmDescription: `More than ${smsFailureAlarm.threshold} SMS failed within ${smsFailureAlarm.period.toMinutes()} minutes: look at their failedReason (the workers' logs) for a gateway, sender id or carrier problem.`,
      metric: new Metric({
        namespace: metric.namespace,
        metricName: metric.name,
        period: smsFailureAlarm.period,
        statistic: Stats.SUM,
      }),
      threshold: smsFailureAlarm.threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }

  /**
   * The API's slow tail, each queue's backlog, and the table's throttles and errors. Scheduled
   * functions' failures are their Errors alarms (addFunctionAlarms), like every function's.
   */
  private addOperationalAlarms(stage: string): void {
    const alarm = (id: string, name: string, props: Omit<AlarmProps, 'alarmName' | 'treatMissingData'>) =>
      new Alarm(this, id, {
        alarmName: `${stackName(stage)}-${name}`,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        ...props,
      });
    const { thresholdMs, period, periods } = apiLatencyAlarm;
    alarm('ApiLatencyP99Alarm', 'api-latency-p99', {
      alarmDescription: `The API's p99 latency was above ${thresholdMs} ms for ${periods} periods of ${period.toMinutes()} minutes: look at the slowest functions' durations and at DynamoDB's latency.`,
      metric: this.api.deploymentStage.metricLatency({ period, statistic: 'p99' }),
      threshold: thresholdMs,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: periods,
    });
    for (const [queueName, queue] of this.queues) {
      alarm(`${pascalCase(queueName)}OldestMessageAlarm`, `${queueName}-oldest-message`, {
        alarmDescription: `A message of ${queueName} has waited over ${oldestMessageAlarmSeconds / 60} minutes, longer than its retries take: its worker is failing, throttled or not keeping up.`,
        metric: queue.metricApproximateAgeOfOldestMessage({
          period: Duration.minutes(5),
          statistic: Stats.MAXIMUM,
        }),
        threshold: oldestMessageAlarmSeconds,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
      });
    }
    // Lambda's account-wide Throttles: no function has reserved concurrency, so a throttle means
    // the account's concurrency ran out, whichever function it hit.
    alarm('FunctionThrottlesAlarm', 'function-throttles', {
      alarmDescription:
        "Lambda throttled invocations: the account's concurrency ran out. API callers got an error; a queue's batch waits and is retried. The dashboard's function panels show which.",
      metric: new Metric({
        namespace: 'AWS/Lambda',
        metricName: 'Throttles',
        period: Duration.minutes(1),
        statistic: Stats.SUM,
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
    const period5 = Duration.minutes(5);
    alarm('TableThrottlesAlarm', 'table-throttles', {
      alarmDescription:
        'DynamoDB throttled reads or writes of the table (or a GSI through it): requests slowed or failed.',
      metric: new MathExpression({
        expression: 'reads + writes',
        usingMetrics: {
          reads: this.table.metric('ReadThrottleEvents', { period: period5, statistic: Stats.SUM }),
          writes: this.table.metric('WriteThrottleEvents', { period: period5, statistic: Stats.SUM }),
        },
        label: 'Throttled reads and writes',
        period: period5,
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
    alarm('TableSystemErrorsAlarm', 'table-system-errors', {
      alarmDescription:
        'DynamoDB answered 500s to the service: its own errors, retried by the SDK; a run of them is an AWS incident.',
      metric: this.table.metricSystemErrorsForOperations({
        operations: tableOperations,
        period: period5,
        statistic: Stats.SUM,
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
    });
  }

  /** One dashboard per stage: traffic, errors and latency; functions; queues; the table. */
  private addDashboard(stage: string): void {
    const apiStage = this.api.deploymentStage;
    const period = Duration.minutes(5);
    const allFunctions = [...this.functions.values(), ...this.workers.values(), ...this.scheduled.values()];
    const dashboard = new Dashboard(this, 'Dashboard', { dashboardName: stackName(stage) });
    dashboard.addWidgets(
      new GraphWidget({
        title: 'API requests and errors',
        left: [apiStage.metricCount({ period, statistic: Stats.SUM })],
        right: [
          apiStage.metricClientError({ period, statistic: Stats.SUM }),
          apiStage.metricServerError({ period, statistic: Stats.SUM }),
        ],
        width: 12,
      }),
      new GraphWidget({
        title: 'API latency (ms)',
        left: ['p50', 'p90', 'p99'].map((statistic) => apiStage.metricLatency({ period, statistic })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Function errors',
        left: allFunctions.map((fn) => fn.metricErrors({ period, statistic: Stats.SUM, label: fn.node.id })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Function duration p99 (ms)',
        left: allFunctions.map((fn) => fn.metricDuration({ period, statistic: 'p99', label: fn.node.id })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Queues: oldest message (s)',
        left: [...this.queues].map(([name, queue]) =>
          queue.metricApproximateAgeOfOldestMessage({ period, statistic: Stats.MAXIMUM, label: name }),
        ),
        width: 12,
      }),
      new GraphWidget({
        title: 'Table: consumed capacity and throttles',
        left: [
          this.table.metricConsumedReadCapacityUnits({ period, statistic: Stats.SUM }),
          this.table.metricConsumedWriteCapacityUnits({ period, statistic: Stats.SUM }),
        ],
        right: [
          this.table.metric('ReadThrottleEvents', { period, statistic: Stats.SUM }),
          this.table.metric('WriteThrottleEvents', { period, statistic: Stats.SUM }),
        ],
        width: 12,
      }),
    );
  }

  /**
   * Soundbox terminals (DESIGN §8): their thing type, the policy every device certificate gets,
   * and the IoT rules that hand devices' heartbeats and connection events to the presence
   * function. The policy is written with the thing-name policy variable, so one policy serves every
   * device and each device reaches only its own topics: it connects only as its own thing (with a
   * certificate attached to it, of the stage's type), subscribes and receives only under
   * `soundbox/<its name>/`, and publishes only its status.
   */
  private addDevices(
    stage: string,
    production: boolean,
    newFunction: (name: DeviceRuleName, rule: (typeof deviceRuleEntries)[number][1]) => ServiceFunction,
  ): ReadonlyMap<DeviceRuleName, ServiceFunction> {
    const thingType = new CfnThingType(this, 'DeviceThingType', {
      thingTypeName: deviceThingTypeName(stage, production),
      thingTypeProperties: {
        thingTypeDescription: 'Soundbox QR terminal: shows payment QR codes and announces payments',
        searchableAttributes: ['storeId', 'businessId'],
      },
    });
    // A thing type can be deleted only five minutes after it is deprecated, and never while things
    // use it: production's outlives its stack rather than block a deletion.
    thingType.applyRemovalPolicy(production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY);

    // An IoT policy variable, resolved by IoT Core per connection: not a template placeholder.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: IoT policy variable syntax
    const thingName = '${iot:Connection.Thing.ThingName}';
    const iotArn = (resource: string, resourceName: string) =>
      this.formatArn({ service: 'iot', resource, resourceName });
    new CfnIotPolicy(this, 'DevicePolicy', {
      policyName: devicePolicyName(stage),
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Action: 'iot:Connect',
            Resource: iotArn('client', thingName),
            Condition: {
              Bool: { 'iot:Connection.Thing.IsAttached': 'true' },
              StringEquals: { 'iot:Connection.Thing.ThingTypeName': deviceThingTypeName(stage, production) },
            },
          },
          {
            Effect: 'Allow',
            Action: 'iot:Subscribe',
            Resource: iotArn('topicfilter', `soundbox/${thingName}/*`),
          },
          { Effect: 'Allow', Action: 'iot:Receive', Resource: iotArn('topic', `soundbox/${thingName}/*`) },
          {
            Effect: 'Allow',
            Action: 'iot:Publish',
            Resource: iotArn('topic', `soundbox/${thingName}/status`),
          },
        ],
      },
    });

    const functions = new Map<DeviceRuleName, ServiceFunction>();
    for (const [name, rule] of deviceRuleEntries) {
      const fn = newFunction(name, rule);
      rule.sql.forEach((sql, index) => {
        const topicRule = new CfnTopicRule(Stack.of(fn), `${pascalCase(name)}Rule${index + 1}`, {
          // Rule names allow letters, digits and underscores only.
          ruleName: `${stackName(stage)}_${name}_${index + 1}`.replace(/[^a-zA-Z0-9_]/g, '_'),
          topicRulePayload: {
            sql,
            awsIotSqlVersion: '2016-03-23',
            ruleDisabled: false,
            actions: [{ lambda: { functionArn: fn.functionArn } }],
          },
        });
        fn.addPermission(`${pascalCase(name)}Rule${index + 1}Invoke`, {
          principal: new ServicePrincipal('iot.amazonaws.com'),
          sourceArn: topicRule.attrArn,
          sourceAccount: this.account,
        });
      });
      functions.set(name, fn);
    }
    return functions;
  }

  private addServerErrorRateAlarm(stage: string): void {
    const { period, percent } = serverErrorRateAlarm;
    const apiStage = this.api.deploymentStage;
    new Alarm(this, 'ApiServerErrorRateAlarm', {
      alarmName: `${stackName(stage)}-api-5xx-rate`,
      alarmDescription: `More than ${percent}% of the API's requests were answered 5xx over ${period.toMinutes()} minutes: look for errors in the functions' logs and in the access log.`,
      metric: new MathExpression({
        // A period without requests counts as 0%, not as a division by zero.
        expression: 'IF(requests > 0, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: apiStage.metricServerError({ period, statistic: Stats.SUM }),
          requests: apiStage.metricCount({ period, statistic: Stats.SUM }),
        },
        label: '5xx responses (% of requests)',
        period,
      }),
      threshold: percent,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }

  /**
   * Escrow holds end by one-time EventBridge Scheduler schedules (`at(holdUntil)`), created in the
   * stage's own group and invoking the expiry function with a role that may invoke that function
   * and nothing else. Scheduler retries a failed invocation; one that still fails raises the alarm
   * (the safety sweep ends the hold later).
   */
  private addEscrowExpirySchedules(stage: string): EscrowExpiryResources {
    const groupName = `${stackName(stage)}-escrow-expiry`;
    new CfnScheduleGroup(this, 'EscrowExpiryScheduleGroup', { name: groupName });
    const functionArn = this.formatArn({
      service: 'lambda',
      resource: 'function',
      resourceName: functionNameFor(stage, 'expireEscrow'),
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const role = new Role(this, 'EscrowExpirySchedulerRole', {
      description: 'Assumed by EventBridge Scheduler to end escrow holds: invokes the expiry function only',
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    });
    role.addToPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [functionArn] }));
    const failures = (metricName: string) =>
      new Metric({
        namespace: 'AWS/Scheduler',
        metricName,
        dimensionsMap: { ScheduleGroup: groupName },
        period: Duration.minutes(5),
        statistic: Stats.SUM,
      });
    new Alarm(this, 'EscrowExpiryFailedInvocationsAlarm', {
      alarmName: `${groupName}-failed-invocations`,
      alarmDescription:
        'EventBridge Scheduler could not end escrow holds: the expiry function failed or was not invoked (role, throttling). The sweep retries them; look at the expireEscrow logs.',
      metric: new MathExpression({
        expression: 'errors + dropped',
        usingMetrics: { errors: failures('TargetErrorCount'), dropped: failures('InvocationDroppedCount') },
        period: Duration.minutes(5),
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    return { groupName, functionArn, role };
  }

  /**
   * Errors (a handler that threw past the wrapper, a timeout, a crash) of one function: any is worth
   * a look, and one alarm per function says which. Throttles have one alarm for the stage
   * (addOperationalAlarms): they come from the account's concurrency running out, not from one
   * function, and an alarm per function would spend ~50 resources. The alarm sits beside its
   * function, in the function's nested stack.
   */
  private addFunctionAlarms(fn: ServiceFunction, functionName: string): void {
    const id = fn.node.id;
    const anyIn = (metric: Metric, name: string, description: string) =>
      new Alarm(Stack.of(fn), `${id}${name}Alarm`, {
        alarmName: `${functionName}-${name.toLowerCase()}`,
        alarmDescription: description,
        metric,
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        // A function that is not called sends no metric: that is quiet, not broken.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    const options = { period: Duration.minutes(1), statistic: Stats.SUM };
    anyIn(
      fn.metricErrors(options),
      'Errors',
      `${functionName} failed: an unhandled error, a timeout or a crash. Its log group has the request id and the stack trace.`,
    );
  }

  /**
   * The stage's alarm topic. Encrypted with a key of its own, since CloudWatch cannot use the
   * AWS-managed SNS key, and closed to plain HTTP. Only alarms named for this stack may publish.
   */
  private addAlarmTopic(stage: string): Topic {
    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    const key = new Key(this, 'AlarmTopicKey', {
      description: `Encrypts the alarm notifications of ${stackName(stage)}`,
      enableKeyRotation: true,
      // It protects notifications in flight only: nothing to keep once the stage is gone.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // CloudWatch encrypts the message itself when it publishes to an encrypted topic. Who may
    // publish is decided by the topic policy below; the key serves this topic alone.
    key.grant(cloudWatch, 'kms:Decrypt', 'kms:GenerateDataKey*');
    const topic = new Topic(this, 'AlarmTopic', {
      topicName: alarmTopicName(stage),
      displayName: `Partner Payments alarms (${stage})`,
      masterKey: key,
      enforceSSL: true,
    });
    topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsOfThisStack',
        principals: [cloudWatch],
        actions: ['sns:Publish'],
        resources: [topic.topicArn],
        conditions: {
          ArnLike: {
            'aws:SourceArn': this.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: `${stackName(stage)}-*`,
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
          StringEquals: { 'aws:SourceAccount': this.account },
        },
      }),
    );
    return topic;
  }

  /**
   * A queue, and the dead-letter queue that takes its messages after `maxReceiveCount` failed
   * receives, with an alarm as soon as one lands there. Both are encrypted and refuse plain HTTP.
   */
  private addQueue(stage: string, queueName: QueueName, definition: QueueDefinition): Queue {
    const id = pascalCase(queueName);
    const physicalName = `${stackName(stage)}-${queueName}`;
    if (deadLetterQueueName(physicalName).length > maxQueueNameLength) {
      throw new Error(`Queue name ${physicalName} is too long: shorten the stage or queue name`);
    }
    const deadLetters = new Queue(this, `${id}DeadLetters`, {
      queueName: deadLetterQueueName(physicalName),
      retentionPeriod: deadLetterRetention,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    acknowledge(
      deadLetters,
      'Serverless-SQSRedrivePolicy',
      'This is the dead-letter queue: its messages stay here for an operator to inspect and redrive.',
    );
    const queue = new Queue(this, `${id}Queue`, {
      queueName: physicalName,
      visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: deadLetters, maxReceiveCount: definition.maxReceiveCount },
    });
    new Alarm(this, `${id}DeadLettersAlarm`, {
      alarmName: `${physicalName}-dead-letters`,
      alarmDescription: `Messages of ${queueName} failed ${definition.maxReceiveCount} times and wait in ${deadLetterQueueName(physicalName)}: find the cause in the worker's logs, fix it, then redrive them.`,
      metric: deadLetters.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: Stats.MAXIMUM,
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      // An idle queue sends no metric: that is an empty queue, not a problem.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    return queue;
  }

  /**
   * Where the event source mapping parks a stream record that failed every retry (the record's
   * shard, sequence numbers and the reason, for an operator to replay), with an alarm as soon as one
   * lands there.
   */
  private addStreamFailureQueue(stage: string, consumerName: StreamConsumerName): Queue {
    const id = `${pascalCase(consumerName)}Failures`;
    const physicalName = `${stackName(stage)}-${consumerName}-failures`;
    const queue = new Queue(this, id, {
      queueName: physicalName,
      retentionPeriod: deadLetterRetention,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    acknowledge(
      queue,
      'Serverless-SQSRedrivePolicy',
      "This is the stream mapping's on-failure queue: its messages stay here for an operator to inspect and replay.",
    );
    acknowledge(
      queue,
      'AwsSolutions-SQS3',
      "This is the stream mapping's on-failure queue, the stream's dead-letter queue: nothing consumes it to fail again.",
    );
    new Alarm(this, `${id}Alarm`, {
      alarmName: physicalName,
      alarmDescription: `A change of the table failed every retry of ${consumerName} and waits in ${physicalName}: find the cause in the function's logs, fix it, then replay the change from the record's sequence numbers.`,
      metric: queue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: Stats.MAXIMUM,
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    return queue;
  }

  private addWebAcl(stage: string, production: boolean, removalPolicy: RemovalPolicy): void {
    const rateLimitedBody = 'RateLimited';
    const rateRule = (
      name: string,
      priority: number,
      limit: number,
      key: Pick<CfnWebACL.RateBasedStatementProperty, 'aggregateKeyType' | 'customKeys'>,
    ): CfnWebACL.RuleProperty => ({
      name,
      priority,
      statement: {
        rateBasedStatement: { limit, evaluationWindowSec: wafRateLimits.windowSeconds, ...key },
      },
      // 429 with the spec's body, not WAF's 403: clients back off and retry on 429.
      action: {
        block: { customResponse: { responseCode: 429, customResponseBodyKey: rateLimitedBody } },
      },
      visibilityConfig: { cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName: name },
    });

    // Bodies over the limit are refused whole: WAF inspects the first 16 KB of a body on API
    // Gateway, and MATCH treats what lies beyond as over the limit rather than letting it through.
    const tooLargeBody = 'RequestTooLarge';
    const targetTooLongBody = 'TargetTooLong';
    const sizeRule = (
      name: string,
      priority: number,
      fieldToMatch: CfnWebACL.FieldToMatchProperty,
      limit: number,
      answer: { status: number; bodyKey: string },
    ): CfnWebACL.RuleProperty => ({
      name,
      priority,
      statement: {
        sizeConstraintStatement: {
          fieldToMatch,
          comparisonOperator: 'GT',
          size: limit,
          textTransformations: [{ priority: 0, type: 'NONE' }],
        },
      },
      action: {
        block: { customResponse: { responseCode: answer.status, customResponseBodyKey: answer.bodyKey } },
      },
      visibilityConfig: { cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName: name },
    });

    const webAcl = new CfnWebACL(this, 'WebAcl', {
      name: stackName(stage),
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      customResponseBodies: {
        [rateLimitedBody]: {
          contentType: 'APPLICATION_JSON',
          content: errorTemplate('too_many_requests', '"Too many requests"'),
        },
        [tooLargeBody]: {
          contentType: 'APPLICATION_JSON',
          content: errorTemplate('request_too_large', '"The request body is too large"'),
        },
        [targetTooLongBody]: {
          contentType: 'APPLICATION_JSON',
          content: errorTemplate('bad_request', '"The request target is too long"'),
        },
      },
      rules: [
        rateRule('RatePerApiKeyId', 0, wafRateLimits.perApiKeyId, {
          aggregateKeyType: 'CUSTOM_KEYS',
          customKeys: [
            {
              header: {
                name: 'x-api-key-id',
                // Key ids are UUIDs that clients may send in either case.
                textTransformations: [{ priority: 0, type: 'LOWERCASE' }],
              },
            },
          ],
        }),
        rateRule('RatePerIp', 1, wafRateLimits.perIp, { aggregateKeyType: 'IP' }),
        sizeRule('BodyTooLarge', 2, { body: { oversizeHandling: 'MATCH' } }, requestLimits.bodyBytes, {
          status: 413,
          bodyKey: tooLargeBody,
        }),
        // API Gateway caps the target at 8 KB itself; the service takes half of that.
        sizeRule('QueryTooLong', 3, { queryString: {} }, requestLimits.targetChars, {
          status: 414,
          bodyKey: targetTooLongBody,
        }),
        sizeRule('PathTooLong', 4, { uriPath: {} }, requestLimits.targetChars, {
          status: 414,
          bodyKey: targetTooLongBody,
        }),
        ...managedRuleGroups.map(
          (name, index): CfnWebACL.RuleProperty => ({
            name,
            priority: 10 + index,
            statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
            // The group's own actions (block) apply.
            overrideAction: { none: {} },
            visibilityConfig: {
              cloudWatchMetricsEnabled: true,
              sampledRequestsEnabled: true,
              metricName: name,
            },
          }),
        ),
      ],
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        sampledRequestsEnabled: true,
        metricName: stackName(stage),
      },
    });
    new CfnWebACLAssociation(this, 'WebAclAssociation', {
      resourceArn: this.api.deploymentStage.stageArn,
      webAclArn: webAcl.attrArn,
    });
    // WAF requires the `aws-waf-logs-` prefix. What was blocked and why, for a caller who says
    // they were refused; the API key is never logged.
    const wafLogs = new LogGroup(this, 'WafLogs', {
      logGroupName: `aws-waf-logs-${stackName(stage)}`,
      retention: production ? RetentionDays.ONE_YEAR : RetentionDays.TWO_WEEKS,
      removalPolicy,
    });
    new CfnLoggingConfiguration(this, 'WafLogging', {
      resourceArn: webAcl.attrArn,
      logDestinationConfigs: [wafLogs.logGroupArn],
      redactedFields: [{ singleHeader: { Name: 'x-api-key' } }],
    });
  }
}
