import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  SetQueueAttributesCommand,
  type SQSClient,
  SQSServiceException,
} from '@aws-sdk/client-sqs';
import { deadLetterQueueName } from '#infra/naming.ts';
import { type QueueDefinition, type QueueName, queues } from '#shared/catalogue/queues.ts';
import { localQueueUrl } from './sqs.ts';

/**
 * Creates every queue of the function catalogue with its dead-letter queue and redrive policy, as the
 * stack does, sandbox-only queues included (the local host is a sandbox). Queues are named after
 * their key. Queues kept from an earlier run keep their messages and take the attributes of the
 * catalogue as it is now. Answers each queue's URL, for clients of `endpoint`.
 */
export async function ensureQueues(client: SQSClient, endpoint: string): Promise<Map<QueueName, string>> {
  const urls = new Map<QueueName, string>();
  for (const [name, definition] of Object.entries(queues) as [QueueName, QueueDefinition][]) {
    const deadLettersUrl = await ensureQueue(client, endpoint, deadLetterQueueName(name), {});
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: deadLettersUrl, AttributeNames: ['QueueArn'] }),
    );
    const url = await ensureQueue(client, endpoint, name, {
      VisibilityTimeout: String(definition.visibilityTimeoutSeconds),
      RedrivePolicy: JSON.stringify({
        deadLetterTargetArn: Attributes?.QueueArn,
        maxReceiveCount: definition.maxReceiveCount,
      }),
    });
    urls.set(name, url);
  }
  return urls;
}

async function ensureQueue(
  client: SQSClient,
  endpoint: string,
  name: string,
  attributes: Record<string, string>,
): Promise<string> {
  try {
    await client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  } catch (error) {
    // Kept from a run whose catalogue said otherwise: SQS refuses to create it again as it is.
    // (Named with the query protocol's prefix, AWS.SimpleQueueService.QueueNameExists, by fauxqs.)
    if (!(error instanceof SQSServiceException && error.name.endsWith('QueueNameExists'))) throw error;
    const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: name }));
    await client.send(new SetQueueAttributesCommand({ QueueUrl, Attributes: attributes }));
  }
  return localQueueUrl(endpoint, name);
}
