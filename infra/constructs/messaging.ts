/**
 * The stage's queues, from the function catalogue: each with the dead-letter queue that takes its messages
 * after `maxReceiveCount` failed receives, and beside them the stream consumers' on-failure queues.
 * Every queue where a message waits for an operator alarms as soon as messages land there. All are
 * encrypted and refuse plain HTTP. Sandbox-only queues are left out of production.
 */
import { Duration, type Stack } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Stage } from '#infra/constructs/stage.ts';
import { acknowledge } from '#infra/nag.ts';
import { deadLetterQueueName, pascalCase, stackName } from '#infra/naming.ts';
import { type QueueDefinition, type QueueName, queues } from '#shared/catalogue/queues.ts';
import type { StreamConsumerName } from '#shared/catalogue/stream-consumers.ts';

/**
 * How long a dead-letter queue keeps a message. SQS counts it from the message's first enqueue, so
 * this must exceed the source queue's retention (4 days): a message then waits about ten days in
 * the dead-letter queue for someone to look at it and redrive it.
 */
export const deadLetterRetention = Duration.days(14);

/** SQS's own limit on queue names. */
const maxQueueNameLength = 80;

export class StageQueues {
  readonly byName: ReadonlyMap<QueueName, Queue>;

  constructor(
    private readonly stack: Stack,
    private readonly stage: Stage,
  ) {
    const byName = new Map<QueueName, Queue>();
    for (const [queueName, definition] of Object.entries(queues) as [QueueName, QueueDefinition][]) {
      if (stage.production && definition.sandboxOnly) continue;
      byName.set(queueName, this.addQueue(queueName, definition));
    }
    this.byName = byName;
  }

  /**
   * Where the event source mapping parks a stream record that failed every retry (the record's
   * shard, sequence numbers and the reason, for an operator to replay), with an alarm as soon as one
   * lands there.
   */
  streamFailureQueue(consumerName: StreamConsumerName): Queue {
    const id = `${pascalCase(consumerName)}Failures`;
    const physicalName = `${stackName(this.stage.name)}-${consumerName}-failures`;
    const queue = new Queue(this.stack, id, {
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
    this.alarmOnAnyMessage(
      `${id}Alarm`,
      physicalName,
      queue,
      `A change of the table failed every retry of ${consumerName} and waits in ${physicalName}: find the cause in the function's logs, fix it, then replay the change from the record's sequence numbers.`,
    );
    return queue;
  }

  /**
   * A queue, and the dead-letter queue that takes its messages after `maxReceiveCount` failed
   * receives, with an alarm as soon as one lands there.
   */
  private addQueue(queueName: QueueName, definition: QueueDefinition): Queue {
    const id = pascalCase(queueName);
    const physicalName = `${stackName(this.stage.name)}-${queueName}`;
    if (deadLetterQueueName(physicalName).length > maxQueueNameLength) {
      throw new Error(`Queue name ${physicalName} is too long: shorten the stage or queue name`);
    }
    const deadLetters = new Queue(this.stack, `${id}DeadLetters`, {
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
    const queue = new Queue(this.stack, `${id}Queue`, {
      queueName: physicalName,
      visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: deadLetters, maxReceiveCount: definition.maxReceiveCount },
    });
    this.alarmOnAnyMessage(
      `${id}DeadLettersAlarm`,
      `${physicalName}-dead-letters`,
      deadLetters,
      `Messages of ${queueName} failed ${definition.maxReceiveCount} times and wait in ${deadLetterQueueName(physicalName)}: find the cause in the worker's logs, fix it, then redrive them.`,
    );
    return queue;
  }

  /**
   * An alarm as soon as messages arrive in `queue`, which only an operator empties: on the rise of
   * its visible messages rather than on their number, so the alarm goes back to OK once arrivals
   * stop, even while the first incident's messages wait for their redrive, and a second incident
   * raises it (and pages) again. SQS counts no NumberOfMessagesSent for what a redrive moves, so the
   * rise is read from the visible count; an empty queue may send no data point, hence the FILL.
   */
  private alarmOnAnyMessage(id: string, alarmName: string, queue: Queue, alarmDescription: string): void {
    new Alarm(this.stack, id, {
      alarmName,
      alarmDescription,
      metric: new MathExpression({
        expression: 'DIFF(FILL(visible, 0))',
        usingMetrics: {
          visible: queue.metricApproximateNumberOfMessagesVisible({
            period: Duration.minutes(1),
            statistic: Stats.MAXIMUM,
          }),
        },
        label: 'Messages arrived',
        period: Duration.minutes(1),
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      // An idle queue sends no metric: that is an empty queue, not a problem.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
