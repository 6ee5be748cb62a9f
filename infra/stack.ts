import {
  ArnFormat,
  CfnOutput,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { FilterPattern, LogGroup, MetricFilter, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnConfigurationSet } from 'aws-cdk-lib/aws-smsvoice';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { SqsSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import {
  alarmTopicName,
  deadLetterQueueName,
  isProductionStage,
  sandboxProviderSecretName,
  serviceName,
  stackName,
  tableNameForStage,
} from '#infra/naming.ts';
import {
  apiFunctionTimeout,
  type EscrowExpiryResources,
  ServiceFunction,
  type ServiceFunctionProps,
  scheduledFunctionTimeout,
  workerFunctionTimeout,
} from '#infra/service-function.ts';
import { tableDefinition } from '#shared/data/table-definition.ts';
import {
  type QueueDefinition,
  type QueueName,
  queues,
  queueUrlVariable,
  type RouteName,
  routeEntries,
  type ScheduleName,
  scheduleEntries,
  scheduleTargetEntries,
  type WorkerName,
  workerEntries,
} from '#shared/routes.ts';

export interface PaymentsStackProps extends StackProps {
  readonly stage: string;
  /** Variables every function gets: the stage's checked `-c` settings (see stage-config.ts). */
  readonly stageEnvironment?: Readonly<Record<string, string>>;
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
 * WAF rate limits over one-minute windows. Per API key id, so a single integrator cannot use the
 * whole stage budget (20/s on average); per IP, a looser cap that also covers requests without a
 * key id (public pages, scans of unknown routes), which the key rule does not count.
 */
export const wafRateLimits = { perApiKeyId: 1_200, perIp: 3_000, windowSeconds: 60 } as const;

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
  { type: ResponseType.RESOURCE_NOT_FOUND, statusCode: '404', id: 'not_found', message: '"Route not found"' },
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

/** SQS's own limit on queue names. */
const maxQueueNameLength = 80;

const pascalCase = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * One stage of the service: the table, the queues with their dead-letter queues, the REST API, one
 * function per route, one per worker and one per schedule (with its EventBridge rule). Sandbox-only
 * routes, queues, workers and schedules (the sandbox provider, test helpers) are left out of
 * production.
 */
export class PaymentsStack extends Stack {
  readonly table: Table;
  readonly queues: ReadonlyMap<QueueName, Queue>;
  /** Sandbox stages only: the key the sandbox provider signs callbacks with, and the service checks. */
  readonly sandboxProviderSecret: Secret | undefined;
  /** Every alarm of the stage notifies it; operators subscribe to it. */
  readonly alarmTopic: Topic;
  readonly api: RestApi;
  readonly functions: ReadonlyMap<RouteName, ServiceFunction>;
  readonly workers: ReadonlyMap<WorkerName, ServiceFunction>;
  readonly scheduled: ReadonlyMap<ScheduleName, ServiceFunction>;
  /** Production only: where AWS End User Messaging SMS reports the delivery of each message. */
  readonly smsConfigurationSet: CfnConfigurationSet | undefined;

  constructor(scope: Construct, id: string, props: PaymentsStackProps) {
    super(scope, id, props);
    const { stage } = props;
    const production = isProductionStage(stage);
    const removalPolicy = production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.table = new Table(this, 'Table', {
      tableName: tableNameForStage(stage),
      partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
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
      Validations.of(this.sandboxProviderSecret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'Sandbox-only signing key shared by our own functions alone: no third party holds a copy to rotate.',
      });
    }

    this.smsConfigurationSet = production ? this.addSmsDeliveryEvents(stage) : undefined;

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
      },
      stageEnvironment: props.stageEnvironment,
      sandbox: !production,
      logRetention: production ? RetentionDays.THREE_MONTHS : RetentionDays.TWO_WEEKS,
      logRemovalPolicy: removalPolicy,
    } satisfies Partial<ServiceFunctionProps>;

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
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason: "Handlers validate with zod to answer the spec's 422 validation_error body.",
    });
    const cloudWatchRole = this.api.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole) {
      Validations.of(cloudWatchRole).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason: "API Gateway's account-wide logging role needs to create log groups it names itself.",
      });
    }

    const functions = new Map<RouteName, ServiceFunction>();
    for (const [routeName, route] of routeEntries) {
      if (production && route.sandboxOnly) continue;
      const functionName = `${stackName(stage)}-${routeName}`;
      const fn = new ServiceFunction(this, pascalCase(routeName), {
        ...functionDefaults,
        entry: route.handler,
        functionName,
        access: route.access,
        timeout: apiFunctionTimeout,
      });
      this.addFunctionAlarms(fn, functionName);
      functions.set(routeName, fn);
      const method = this.api.root.resourceForPath(route.path).addMethod(
        route.method,
        // The console's test-invoke is not used; each function may be invoked by its method only.
        new LambdaIntegration(fn, { allowTestInvoke: false }),
      );
      // Authentication and key rights are checked in the handler wrapper, because it must answer
      // the spec's exact 401 and 403 bodies (an authorizer's denials come out as gateway errors).
      Validations.of(method).acknowledge(
        { id: 'AwsSolutions-APIG4', reason: 'API keys are checked by the handler wrapper (DESIGN §3).' },
        { id: 'AwsSolutions-COG4', reason: 'Integrators authenticate with API keys, not Cognito users.' },
      );
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
      const functionName = `${stackName(stage)}-${workerName}`;
      const fn = new ServiceFunction(this, pascalCase(workerName), {
        ...functionDefaults,
        entry: worker.handler,
        functionName,
        access: worker.access,
        timeout: workerFunctionTimeout(queues[worker.queue]),
      });
      this.addFunctionAlarms(fn, functionName);
      // Failed records are reported one by one, so a batch's successes are not handled twice.
      fn.addEventSource(
        new SqsEventSource(queue, { batchSize: worker.batchSize, reportBatchItemFailures: true }),
      );
      // The event source lets the worker consume its queue, visibility changes included (how a
      // worker sets when a failed message comes back); the URL is what those calls need.
      fn.addEnvironment(queueUrlVariable(worker.queue), queue.queueUrl);
      workers.set(workerName, fn);
    }
    this.workers = workers;

    const scheduled = new Map<ScheduleName, ServiceFunction>();
    for (const [scheduleName, schedule] of scheduleEntries) {
      if (production && schedule.sandboxOnly) continue;
      const functionName = `${stackName(stage)}-${scheduleName}`;
      const fn = new ServiceFunction(this, pascalCase(scheduleName), {
        ...functionDefaults,
        entry: schedule.handler,
        functionName,
        access: schedule.access,
        timeout: scheduledFunctionTimeout,
      });
      this.addFunctionAlarms(fn, functionName);
      new Rule(this, `${pascalCase(scheduleName)}Schedule`, {
        ruleName: functionName,
        description: `Runs ${scheduleName} on ${schedule.expression}`,
        schedule: Schedule.expression(schedule.expression),
        targets: [new LambdaFunction(fn)],
      });
      scheduled.set(scheduleName, fn);
    }
    this.scheduled = scheduled;

    for (const [targetName, target] of scheduleTargetEntries) {
      const functionName = `${stackName(stage)}-${targetName}`;
      const fn = new ServiceFunction(this, pascalCase(targetName), {
        ...functionDefaults,
        entry: target.handler,
        functionName,
        access: target.access,
        timeout: scheduledFunctionTimeout,
      });
      this.addFunctionAlarms(fn, functionName);
    }

    this.addSmsFailureAlarm(stage, workers);
    this.addWebAcl(stage);

    this.addServerErrorRateAlarm(stage);
    this.alarmTopic = this.addAlarmTopic(stage);
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
    topic.addSubscription(new SqsSubscription(events, { rawMessageDelivery: true }));
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
      new MetricFilter(this, `${pascalCase(workerName)}FailedFilter`, {
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
   * Errors (a handler that threw past the wrapper, a timeout, a crash) and throttles (concurrency
   * exhausted) of one function: any is worth a look, and one alarm per function says which.
   */
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
      resourceName: `${stackName(stage)}-expireEscrow`,
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

  private addFunctionAlarms(fn: ServiceFunction, functionName: string): void {
    const id = fn.node.id;
    const anyIn = (metric: Metric, name: string, description: string) =>
      new Alarm(this, `${id}${name}Alarm`, {
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
    anyIn(
      fn.metricThrottles(options),
      'Throttles',
      `${functionName} was throttled: the account's concurrency ran out. API callers got an error; a queue's batch waits and is retried.`,
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

  private addWebAcl(stage: string): void {
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

    const webAcl = new CfnWebACL(this, 'WebAcl', {
      name: stackName(stage),
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      customResponseBodies: {
        [rateLimitedBody]: {
          contentType: 'APPLICATION_JSON',
          content: errorTemplate('too_many_requests', '"Too many requests"'),
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
  }
}
