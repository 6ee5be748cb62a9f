/**
 * The stage's alarm topic, which the stage's paging alarm notifies (paging.ts), with the e-mail address of the
 * stage's registry entry subscribed; operators may subscribe more (the stack's `AlarmTopicArn` output).
 * Encrypted with a key of its own, since CloudWatch cannot use the AWS-managed SNS key, and closed
 * to plain HTTP. Only alarms named for this stack may publish.
 */
import { ArnFormat, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { acknowledge } from '#infra/nag.ts';
import { alarmTopicName, stackName } from '#infra/naming.ts';

/**
 * A service's use of a topic's key, as SNS makes it on the publisher's behalf: a data key for the
 * named topic only (`aws:sns:topicArn` in the encryption context). The ARN is built from the name,
 * as the topic's own would make the key and the topic depend on each other.
 */
export function snsTopicKeyUse(
  stack: Stack,
  publisher: ServicePrincipal,
  topicName: string,
): PolicyStatement {
  return new PolicyStatement({
    principals: [publisher],
    actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
    resources: ['*'],
    conditions: {
      StringEquals: {
        'kms:EncryptionContext:aws:sns:topicArn': stack.formatArn({
          service: 'sns',
          resource: topicName,
          arnFormat: ArnFormat.NO_RESOURCE_NAME,
        }),
      },
    },
  });
}

export class AlarmTopic {
  readonly topic: Topic;

  constructor(stack: Stack, stage: string, alarmEmail: string) {
    const cloudWatch = new ServicePrincipal('cloudwatch.amazonaws.com');
    const key = new Key(stack, 'AlarmTopicKey', {
      description: `Encrypts the alarm notifications of ${stackName(stage)}`,
      enableKeyRotation: true,
      // It protects notifications in flight only: nothing to keep once the stage is gone.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // CloudWatch encrypts the message itself when it publishes to an encrypted topic. Who may
    // publish is decided by the topic policy below; the key serves this topic alone, and only
    // through SNS, which names the topic in the encryption context of every call.
    key.addToResourcePolicy(snsTopicKeyUse(stack, cloudWatch, alarmTopicName(stage)));
    this.topic = new Topic(stack, 'AlarmTopic', {
      topicName: alarmTopicName(stage),
      displayName: `Partner Payments alarms (${stage})`,
      masterKey: key,
      enforceSSL: true,
    });
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsOfThisStack',
        principals: [cloudWatch],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: `${stackName(stage)}-*`,
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
          StringEquals: { 'aws:SourceAccount': stack.account },
        },
      }),
    );
    this.topic.addSubscription(new EmailSubscription(alarmEmail));
    const emailSubscription = this.topic.node.tryFindChild(alarmEmail);
    if (emailSubscription) {
      acknowledge(
        emailSubscription,
        'Serverless-SNSRedrivePolicy',
        'A lost alarm e-mail loses no alarm: its state and history stay in CloudWatch, and OK/ALARM transitions are e-mailed again.',
      );
    }
  }
}
