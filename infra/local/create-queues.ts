import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { deadLetterQueueName } from '#infra/naming.ts';
import { type QueueDefinition, type QueueName, queues } from '#shared/routes.ts';

/**
 * Creates every queue of the route table with its dead-letter queue and redrive policy, as the
 * stack does, sandbox-only queues included (the local host is a sandbox). Queues are named after
 * their key. Answers each queue's URL.
 */
export async function ensureQueues(client: SQSClient): Promise<Map<QueueName, string>> {
  const urls = new Map<QueueName, string>();
  for (const [name, definition] of Object.entries(queues) as [QueueName, QueueDefinition][]) {
    const { QueueUrl: deadLettersUrl } = await client.send(
      new CreateQueueCommand({ QueueName: deadLetterQueueName(name) }),
    );
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: deadLettersUrl, AttributeNames: ['QueueArn'] }),
    );
    const { QueueUrl } = await client.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: {
          VisibilityTimeout: String(definition.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: Attributes?.QueueArn,
            maxReceiveCount: definition.maxReceiveCount,
          }),
        },
      }),
    );
    urls.set(name, QueueUrl as string);
  }
  return urls;
}
