/**
 * Production only: the configuration set production sends SMS with, and its event destination: an
 * SNS topic (encrypted, with a key the SMS service may use) that delivers each event, raw, to the
 * `smsEvents` queue, whose worker moves the messages' statuses. Sandbox stages send nothing out;
 * their gateway reports its delivery events on that queue itself.
 */
import { RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { CfnConfigurationSet } from 'aws-cdk-lib/aws-smsvoice';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { SqsSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { snsTopicKeyUse } from '#infra/constructs/alarm-topic.ts';
import { acknowledge } from '#infra/nag.ts';
import { stackName } from '#infra/naming.ts';
import type { QueueName } from '#shared/catalogue/queues.ts';

export class SmsConfigurationSet {
  readonly resource: CfnConfigurationSet;
  /** What the sending functions are given: the set's name to send with, its ARN to be granted. */
  readonly name: string;
  readonly arn: string;

  constructor(stack: Stack, stage: string, queues: ReadonlyMap<QueueName, IQueue>) {
    const events = queues.get('smsEvents');
    if (!events) throw new Error('The smsEvents queue is missing');
    const smsService = new ServicePrincipal('sms-voice.amazonaws.com');
    const key = new Key(stack, 'SmsEventsKey', {
      description: `Encrypts the SMS delivery events of ${stackName(stage)}`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const topicName = `${stackName(stage)}-sms-events`;
    // The SMS service encrypts what it publishes with the topic's key: through SNS, for this topic.
    key.addToResourcePolicy(snsTopicKeyUse(stack, smsService, topicName));
    const topic = new Topic(stack, 'SmsEventsTopic', {
      topicName,
      masterKey: key,
      enforceSSL: true,
    });
    this.name = `${stackName(stage)}-sms`;
    topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'SmsEventsOfThisStack',
        principals: [smsService],
        actions: ['sns:Publish'],
        resources: [topic.topicArn],
        conditions: {
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'sms-voice',
              resource: 'configuration-set',
              resourceName: this.name,
            }),
          },
          StringEquals: { 'aws:SourceAccount': stack.account },
        },
      }),
    );
    const subscription = topic.addSubscription(new SqsSubscription(events, { rawMessageDelivery: true }));
    acknowledge(
      subscription,
      'Serverless-SNSRedrivePolicy',
      'SNS delivers to a queue of this stack, which SNS retries for days; the queue itself has a dead-letter queue for what its worker cannot record.',
    );
    this.resource = new CfnConfigurationSet(stack, 'SmsConfigurationSet', {
      configurationSetName: this.name,
      eventDestinations: [
        {
          eventDestinationName: 'delivery-events',
          enabled: true,
          matchingEventTypes: ['TEXT_ALL'],
          snsDestination: { topicArn: topic.topicArn },
        },
      ],
    });
    this.resource.node.addDependency(topic);
    this.arn = this.resource.attrArn;
  }
}
