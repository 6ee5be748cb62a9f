/**
 * The stage's functions, one per declared function: per endpoint (with its API method), per
 * worker (fed by its queue), per schedule (with its EventBridge rule), per schedule target (invoked
 * by EventBridge Scheduler's one-time schedules), per stream consumer (fed by the table's stream)
 * and per device rule (invoked by the IoT rules of devices.ts). Sandbox-only entries are left out
 * of production. Each function is asked for in the stage's stack and lands in a nested stack of
 * its group, filled in declaration order (infra/function-groups.ts), with what is built beside it
 * with `Stack.of(fn)`: its alarms (function-alarms.ts), its schedule's rule, its permissions, and a
 * route's API method (api.ts, once every route is placed).
 */
import { type Duration, Stack } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import {
  type CfnFunction,
  EventSourceMapping,
  FilterCriteria,
  StartingPosition,
} from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ConcurrencyBudget } from '#infra/concurrency-budget.ts';
import type { PaymentsApi } from '#infra/constructs/api.ts';
import {
  addFailedSweepAlarm,
  addFailureRateAlarm,
  addIteratorAgeAlarm,
  minutesBetweenRuns,
} from '#infra/constructs/function-alarms.ts';
import type { StageQueues } from '#infra/constructs/messaging.ts';
import { MoneyPathRollout } from '#infra/constructs/rollout.ts';
import type { Stage } from '#infra/constructs/stage.ts';
import { acknowledge } from '#infra/nag.ts';
import { functionNameFor, pascalCase } from '#infra/naming.ts';
import {
  apiFunctionTimeout,
  type InvokedBy,
  ServiceFunction,
  type ServiceFunctionProps,
  type ServiceResources,
  scheduledFunctionTimeout,
  streamedFunctionTimeout,
  workerFunctionTimeout,
} from '#infra/service-function.ts';
import type { EndpointName } from '#shared/api/all-endpoints.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';
import { type DeviceRuleName, deviceRuleEntries } from '#shared/catalogue/device-rules.ts';
import { type Worker, type WorkerName, workerEntries } from '#shared/catalogue/queue-workers.ts';
import { queues, queueUrlVariable } from '#shared/catalogue/queues.ts';
import {
  type Schedule as ScheduleEntry,
  type ScheduleName,
  type ScheduleTargetName,
  scheduleEntries,
  scheduleTargetEntries,
} from '#shared/catalogue/schedules.ts';
import {
  type StreamConsumer,
  type StreamConsumerName,
  streamConsumerEntries,
} from '#shared/catalogue/stream-consumers.ts';

export interface ServiceFunctionsProps {
  /** What the functions' access lists may name; the table's stream also feeds the stream consumers. */
  readonly resources: ServiceResources;
  /** The stage's settings (fees, ceilings, public URL, provider routes), the same for every function. */
  readonly stageEnvironment: Readonly<Record<string, string>>;
  readonly api: PaymentsApi;
  /** The routes, in declaration order (which is the order they fill their groups' stacks in). */
  readonly endpoints: readonly (readonly [EndpointName, Endpoint])[];
  /** The queues workers read, and where stream consumers park the records they fail. */
  readonly queues: StageQueues;
  /** Each background function's share of the concurrency the stage counts on. */
  readonly concurrency: ConcurrencyBudget;
}

/** What a function takes from its declaration (an endpoint's, a worker's...). */
interface FunctionEntry {
  readonly entry: string;
  readonly access: ServiceFunctionProps['access'];
  readonly files?: readonly string[];
  readonly sandboxOnly?: boolean;
}

type FunctionDefaults = Pick<
  ServiceFunctionProps,
  'resources' | 'stageEnvironment' | 'sandbox' | 'logRetention' | 'logRemovalPolicy'
>;

export class ServiceFunctions {
  readonly routes: ReadonlyMap<EndpointName, ServiceFunction>;
  readonly workers: ReadonlyMap<WorkerName, ServiceFunction>;
  readonly scheduled: ReadonlyMap<ScheduleName, ServiceFunction>;
  /** The functions EventBridge Scheduler's one-time schedules invoke (escrow hold ends). */
  readonly scheduleTargets: ReadonlyMap<ScheduleTargetName, ServiceFunction>;
  /** The functions fed by the table's stream. */
  readonly streamConsumers: ReadonlyMap<StreamConsumerName, ServiceFunction>;
  /** The functions IoT rules invoke on devices' messages (presence). */
  readonly deviceRules: ReadonlyMap<DeviceRuleName, ServiceFunction>;
  /** What every function of the stage shares; each adds its entry, name, access and timeout. */
  private readonly defaults: FunctionDefaults;
  private readonly concurrency: ConcurrencyBudget;

  constructor(
    private readonly stack: Stack,
    private readonly stage: Stage,
    props: ServiceFunctionsProps,
  ) {
    this.concurrency = props.concurrency;
    this.defaults = {
      resources: props.resources,
      stageEnvironment: props.stageEnvironment,
      sandbox: !stage.production,
      logRetention: stage.production ? RetentionDays.THREE_MONTHS : RetentionDays.TWO_WEEKS,
      logRemovalPolicy: stage.removalPolicy,
    };
    const rollout = new MoneyPathRollout(stack, stage);
    this.routes = this.addFunctions(
      props.endpoints,
      'api',
      (route) => ('page' in route ? streamedFunctionTimeout(route) : undefined) ?? apiFunctionTimeout,
      (fn, route, name) => props.api.addRoute(route, rollout.invokedFor(fn, name)),
    );
    props.api.addMethods();
    this.workers = this.addFunctions(
      workerEntries,
      'queue',
      (worker) => workerFunctionTimeout(queues[worker.queue]),
      (fn, worker, name) => this.feedFromQueue(fn, name, worker),
    );
    this.scheduled = this.addFunctions(
      scheduleEntries,
      'schedule',
      () => scheduledFunctionTimeout,
      (fn, schedule, name) => this.runOnSchedule(fn, name, schedule),
    );
    this.scheduleTargets = this.addFunctions(
      scheduleTargetEntries,
      'scheduler',
      () => scheduledFunctionTimeout,
    );
    this.streamConsumers = this.addFunctions(
      streamConsumerEntries,
      'stream',
      () => scheduledFunctionTimeout,
      (fn, consumer, name) => this.feedFromStream(fn, name, consumer, props.queues),
    );
    this.deviceRules = this.addFunctions(deviceRuleEntries, 'iotRule', () => apiFunctionTimeout);
  }

  /**
   * A function per entry, named for the stage, with its Errors alarm, then `wire`d to what invokes
   * it. Sandbox-only entries are left out of production.
   */
  private addFunctions<Name extends string, Entry extends FunctionEntry>(
    entries: readonly (readonly [Name, Entry])[],
    invokedBy: InvokedBy,
    timeoutOf: (entry: Entry) => Duration,
    wire: (fn: ServiceFunction, entry: Entry, name: Name) => void = () => {},
  ): ReadonlyMap<Name, ServiceFunction> {
    const functions = new Map<Name, ServiceFunction>();
    for (const [name, entry] of entries) {
      if (this.stage.production && entry.sandboxOnly) continue;
      const functionName = functionNameFor(this.stage.name, name);
      const fn = new ServiceFunction(this.stack, pascalCase(name), {
        ...this.defaults,
        entry: entry.entry,
        invokedBy,
        functionName,
        access: entry.access,
        files: entry.files,
        timeout: timeoutOf(entry),
      });
      const reserved = (this.concurrency.reservedConcurrency as Readonly<Record<string, number>>)[name];
      if (reserved !== undefined) {
        (fn.node.defaultChild as CfnFunction).reservedConcurrentExecutions = reserved;
      } else if (invokedBy !== 'api' && invokedBy !== 'queue') {
        throw new Error(
          `${name} is a background function without a budget: add it to infra/concurrency-budget.ts`,
        );
      }
      if (invokedBy === 'schedule') {
        addFailedSweepAlarm(
          fn,
          functionName,
          minutesBetweenRuns((entry as unknown as ScheduleEntry).expression),
        );
      } else {
        addFailureRateAlarm(fn, functionName);
      }
      if (invokedBy === 'stream') addIteratorAgeAlarm(fn, functionName);
      wire(fn, entry, name);
      functions.set(name, fn);
    }
    return functions;
  }

  private feedFromQueue(fn: ServiceFunction, workerName: WorkerName, worker: Worker): void {
    const queue = this.defaults.resources.queues.get(worker.queue);
    if (!queue) {
      throw new Error(
        `Worker ${workerName} reads queue ${worker.queue}, which ${this.stage.name} does not have: a sandbox-only queue can feed sandbox-only workers only`,
      );
    }
    // Failed records are reported one by one, so a batch's successes are not handled twice.
    const eventSource = new SqsEventSource(queue, {
      batchSize: worker.batchSize,
      reportBatchItemFailures: true,
      // A cap that reserves nothing (infra/concurrency-budget.ts): past it, messages wait in the queue.
      maxConcurrency: this.concurrency.workerMaximumConcurrency[workerName],
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
  }

  private runOnSchedule(fn: ServiceFunction, scheduleName: ScheduleName, schedule: ScheduleEntry): void {
    const rule = new Rule(Stack.of(fn), `${pascalCase(scheduleName)}Schedule`, {
      ruleName: functionNameFor(this.stage.name, scheduleName),
      description: `Runs ${scheduleName} on ${schedule.expression}`,
      schedule: Schedule.expression(schedule.expression),
      targets: [new LambdaFunction(fn)],
    });
    acknowledge(
      rule,
      'Serverless-EventBusDLQ',
      'A schedule tick that cannot be delivered holds no data: the next tick does the same work, and the Errors alarm reports failing runs.',
    );
  }

  private feedFromStream(
    fn: ServiceFunction,
    consumerName: StreamConsumerName,
    consumer: StreamConsumer,
    stageQueues: StageQueues,
  ): void {
    fn.addEventSource(
      new DynamoEventSource(this.defaults.resources.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: consumer.batchSize,
        filters: consumer.filters.map((filter) => FilterCriteria.filter(filter)),
        // A failing record is found by halving its batch, retried, and after the last retry
        // parked in a queue that alarms, instead of holding up its shard for the stream's 24 h.
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 10,
        onFailure: new SqsDlq(stageQueues.streamFailureQueue(consumerName)),
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
  }
}
