import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { deadLetterQueueName } from '#infra/naming.ts';
import { type QueueDefinition, type QueueName, queues } from '#shared/catalogue/queues.ts';

const { config } = inject('localHost');
const client = new SQSClient({
  endpoint: config.endpoints.sqs,
  region: 'eu-west-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

afterAll(() => client.destroy());

async function attributesOf(queueName: string) {
  const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName: queueName }));
  const { Attributes = {} } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['All'] }),
  );
  return Attributes;
}

describe("the local host's queues", () => {
  it.each(Object.entries(queues) as [QueueName, QueueDefinition][])(
    '%s exists, sandbox-only or not, with the visibility timeout and redrive policy of its definition',
    async (name, definition) => {
      const queue = await attributesOf(name);
      const deadLetters = await attributesOf(deadLetterQueueName(name));
      expect(queue.VisibilityTimeout).toBe(String(definition.visibilityTimeoutSeconds));
      expect(JSON.parse(queue.RedrivePolicy ?? '{}')).toEqual({
        deadLetterTargetArn: deadLetters.QueueArn,
        maxReceiveCount: definition.maxReceiveCount,
      });
    },
  );
});
