import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Key } from 'aws-cdk-lib/aws-kms';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { CfnConfigurationSet } from 'aws-cdk-lib/aws-smsvoice';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { concurrencyBudgetFor } from '#infra/concurrency-budget.ts';
import { AlarmTopic } from '#infra/constructs/alarm-topic.ts';
import { PaymentsApi } from '#infra/constructs/api.ts';
import { TableBackups } from '#infra/constructs/backups.ts';
import { StageData } from '#infra/constructs/data.ts';
import { SoundboxDevices } from '#infra/constructs/devices.ts';
import { EscrowExpirySchedules } from '#infra/constructs/escrow-expiry.ts';
import { StageQueues } from '#infra/constructs/messaging.ts';
import { StageObservability } from '#infra/constructs/observability.ts';
import { OperatorRole } from '#infra/constructs/operator-role.ts';
import { StagePaging } from '#infra/constructs/paging.ts';
import { StageSecrets } from '#infra/constructs/secrets.ts';
import { ServiceFunctions } from '#infra/constructs/service-functions.ts';
import { SmsConfigurationSet } from '#infra/constructs/sms.ts';
import type { Stage } from '#infra/constructs/stage.ts';
import { ApiWebAcl } from '#infra/constructs/web-acl.ts';
import { groupFunctionsOf } from '#infra/function-groups.ts';
import type { ServiceFunction } from '#infra/service-function.ts';
import { apiKeyRateLimitPerMinute, liveAdaptersOf, providerRoutesOf } from '#infra/stage-config.ts';
import type { StageEntry } from '#infra/stage-registry.ts';
import { type EndpointName, endpointEntries } from '#shared/api/all-endpoints.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';
import type { DeviceRuleName } from '#shared/catalogue/device-rules.ts';
import type { WorkerName } from '#shared/catalogue/queue-workers.ts';
import type { QueueName } from '#shared/catalogue/queues.ts';
import { type ScheduleName, type ScheduleTargetName, scheduleEntries } from '#shared/catalogue/schedules.ts';
import type { StreamConsumerName } from '#shared/catalogue/stream-consumers.ts';
import type { LiveAdapterName } from '#shared/providers/adapters.ts';

export interface PaymentsStackProps extends StackProps {
  /** The stage's entry of the registry in cdk.json, checked. */
  readonly stage: StageEntry;
  /**
   * The routes the stage serves, in declaration order: every declared endpoint unless given (a test
   * adds routes of its own to see the stacks fill and the next open).
   */
  readonly endpoints?: readonly (readonly [EndpointName, Endpoint])[];
}

/**
 * One stage of the service: the table, the queues with their dead-letter queues, the REST API, one
 * function per route, one per worker and one per schedule (with its EventBridge rule). Sandbox-only
 * routes, queues, workers and schedules (the sandbox provider, test helpers) are left out of
 * production. The functions, and what is built beside them with `Stack.of(fn)` (alarms, rules,
 * permissions, a route's API method), sit in the nested stacks of their directory of functions/,
 * filled in declaration order and the next opened when one is full (infra/function-groups.ts); the
 * rest is this stack's. Each concern is built by its own file of infra/constructs/, and this
 * class only wires them together.
 *
 * Those parts are plain classes that take this stack and create their resources in it, rather
 * than constructs with a node of their own. CloudFormation knows a resource by its logical id, and
 * CDK makes that id from the construct path: under a `Data` node the table would get a new id, and
 * a deploy would try to create a second table of the same name beside the one holding the stage's
 * data (and so for every queue, key and log group). The path also feeds ids CDK derives elsewhere
 * (an event source mapping's from its queue's or table's path, a subscription's from its topic's)
 * and each resource's `aws:cdk:path`, so overriding logical ids one by one would miss some and
 * leave the trap for the next resource added. Built in the stack, every resource keeps the path and
 * id it was deployed with. The parts are made in the order the stack has always made them, which
 * keeps even CDK's analytics string (construct types in tree order) as it was.
 */
export class PaymentsStack extends Stack {
  readonly table: Table;
  readonly queues: ReadonlyMap<QueueName, Queue>;
  /** Sandbox stages only: the key the sandbox provider signs callbacks with, and the service checks. */
  readonly sandboxProviderSecret: Secret | undefined;
  /** The credentials of each live provider the stage routes to. */
  readonly providerSecrets: ReadonlyMap<LiveAdapterName, Secret>;
  /** Smile ID's partner id and key, where it checks the stage's identities. */
  readonly identitySecret: Secret | undefined;
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
    // The registry's kind decides, never the name: a stage called "production" may be a sandbox.
    const production = props.stage.kind === 'production';
    const stage: Stage = {
      name: props.stage.name,
      production,
      removalPolicy: production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    };

    const data = new StageData(this, stage);
    this.table = data.table;
    if (data.tableKey) new TableBackups(this, stage, this.table, data.tableKey);
    const queues = new StageQueues(this, stage);
    this.queues = queues.byName;
    const sms = production ? new SmsConfigurationSet(this, stage.name, this.queues) : undefined;
    this.smsConfigurationSet = sms?.resource;
    const providerRoutes = providerRoutesOf(props.stage.environment, production);
    const secrets = new StageSecrets(
      this,
      stage,
      liveAdaptersOf(providerRoutes),
      props.stage.environment.IDENTITY_VENDOR,
    );
    this.sandboxProviderSecret = secrets.sandboxProvider;
    this.webhookSecretsKey = secrets.webhookSecretsKey;
    this.providerSecrets = secrets.liveProviders;
    this.identitySecret = secrets.identity;
    const escrowExpiry = new EscrowExpirySchedules(this, stage.name);

    const api = new PaymentsApi(this, stage);
    this.api = api.restApi;
    const functions = new ServiceFunctions(this, stage, {
      resources: {
        stageName: stage.name,
        table: this.table,
        queues: this.queues,
        sandboxProviderSecret: this.sandboxProviderSecret,
        escrowExpiry,
        smsConfigurationSet: sms,
        webhookSecretsKey: this.webhookSecretsKey,
        providerSecrets: this.providerSecrets,
        identitySecret: this.identitySecret,
      },
      stageEnvironment: {
        ...props.stage.environment,
        // Device topics and metric dimensions carry it (shared/stage.ts).
        STAGE: stage.name,
        PROVIDER_ROUTES: JSON.stringify(providerRoutes),
      },
      api,
      endpoints: props.endpoints ?? endpointEntries,
      queues,
      concurrency: stageConcurrencyBudget(props.stage),
    });
    this.functions = functions.routes;
    this.workers = functions.workers;
    this.scheduled = functions.scheduled;
    this.scheduleTargets = functions.scheduleTargets;
    this.streamConsumers = functions.streamConsumers;
    this.deviceRuleFunctions = functions.deviceRules;
    new SoundboxDevices(this, stage, functions.deviceRules);
    const webAcl = new ApiWebAcl(this, stage, this.api, apiKeyRateLimitPerMinute(props.stage.environment));
    const operator = new OperatorRole(this, stage, {
      table: this.table,
      webhookSecretsKey: this.webhookSecretsKey,
      providerSecrets: [
        ...this.providerSecrets.values(),
        ...(this.identitySecret ? [this.identitySecret] : []),
      ],
    });

    const observability = new StageObservability(this, stage.name, {
      api: this.api,
      webAclName: webAcl.webAclName,
      accountConcurrencyLimit: props.stage.accountConcurrencyLimit,
      table: this.table,
      queues: this.queues,
      functions,
    });
    const alarmTopic = new AlarmTopic(this, stage.name, props.stage.alarmEmail);
    this.alarmTopic = alarmTopic.topic;
    // Last, so that it finds every alarm made above.
    new StagePaging(this, stage.name, alarmTopic.topic, observability.dashboard);

    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'OperatorRoleArn', {
      value: operator.role.roleArn,
      description: 'Assume this role to run the admin command on the stage (docs/operations/admin.md)',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarmTopic.topicArn,
      description: 'Subscribe to this topic to be told of every alarm of the stage',
    });
  }
}

/** The stage's budget, refused with the stage named. */
function stageConcurrencyBudget(stage: StageEntry) {
  try {
    return concurrencyBudgetFor(
      stage.accountConcurrencyLimit,
      scheduleEntries.map(([name]) => name),
    );
  } catch (error) {
    throw new Error(`Stage "${stage.name}" in cdk.json: ${(error as Error).message}`);
  }
}
