/**
 * What the infra tests look up in a stage's template (one template across its nested stacks,
 * stage-template.ts): resources by type, a function or a queue by its name, the IAM statements of a
 * function's role, the queues it may send to. Template only: nothing here builds a stack.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { expect } from 'vitest';
import { stackName } from '#infra/naming.ts';
import { type QueueDefinition, type QueueName, queues } from '#shared/catalogue/queues.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped.
export type Json = any;

export const resourcesOf = (template: Template, type: string): [string, Json][] =>
  Object.entries(template.findResources(type));

export const resourceOf = (template: Template, type: string, logicalId: string): Json =>
  template.findResources(type)[logicalId];

export const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** The one resource of that type that `matches`, which must be there: its logical id and itself. */
export function onlyResourceOf(
  template: Template,
  type: string,
  matches: (resource: Json) => boolean,
): [string, Json] {
  const found = resourcesOf(template, type).filter(([, resource]) => matches(resource));
  expect(found).toHaveLength(1);
  return found[0] as [string, Json];
}

/** The functions named `name` on the stage: one, or none where the stage leaves it out. */
export const functionsNamed = (template: Template, stage: string, name: string): [string, Json][] =>
  resourcesOf(template, 'AWS::Lambda::Function').filter(
    ([, fn]) => fn.Properties.FunctionName === `${stackName(stage)}-${name}`,
  );

/** The function of a route, worker, schedule or other catalogue entry, which must be there. */
export function functionOf(template: Template, stage: string, name: string): [string, Json] {
  const found = functionsNamed(template, stage, name);
  expect(found, `function ${name}`).toHaveLength(1);
  return found[0] as [string, Json];
}

export const queuesNamed = (template: Template, queueName: string): [string, Json][] =>
  resourcesOf(template, 'AWS::SQS::Queue').filter(([, queue]) => queue.Properties.QueueName === queueName);

/** The queue of that name, which must be there. */
export function queueOf(template: Template, queueName: string): [string, Json] {
  const found = queuesNamed(template, queueName);
  expect(found, `queue ${queueName}`).toHaveLength(1);
  return found[0] as [string, Json];
}

/** The catalogue's queues, by name. */
export const queueEntries = Object.entries(queues) as [QueueName, QueueDefinition][];

/** The name a catalogue queue has on a stage. */
export const sourceQueueName = (stage: string, queue: QueueName) => `${stackName(stage)}-${queue}`;

/**
 * The alarms on messages arriving in a queue: the rise of its visible messages, so that the alarm
 * goes back to OK between incidents and a second one raises it again.
 */
export const arrivalAlarmsOf = (template: Template, queueId: string): [string, Json][] =>
  resourcesOf(template, 'AWS::CloudWatch::Alarm').filter(([, alarm]) => {
    const metrics: Json[] = alarm.Properties.Metrics ?? [];
    const visible = metrics.find(
      (metric) =>
        metric.MetricStat?.Metric.MetricName === 'ApproximateNumberOfMessagesVisible' &&
        metric.MetricStat.Metric.Dimensions[0].Value['Fn::GetAtt']?.[0] === queueId,
    );
    return (
      visible !== undefined &&
      metrics.some(
        (metric) => metric.Expression === `DIFF(FILL(${visible.Id}, 0))` && metric.ReturnData !== false,
      )
    );
  });

/** Every IAM statement of the policies attached to a role, by the role's logical id. */
export const roleStatementsOf = (template: Template, roleId: string): Json[] =>
  resourcesOf(template, 'AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: Json) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);

/** Every IAM statement attached to the function's role. */
export const statementsOf = (template: Template, fn: Json): Json[] =>
  roleStatementsOf(template, fn.Properties.Role['Fn::GetAtt'][0]);

/** The DynamoDB actions the function's role allows. */
export function tableActionsOf(template: Template, fn: Json): Set<string> {
  return new Set(
    statementsOf(template, fn)
      .flatMap((statement) => asArray<string>(statement.Action))
      .filter((action) => action.startsWith('dynamodb:')),
  );
}

/** The queues a function may send to, by the logical ids of their resources. */
export function queuesSentToBy(template: Template, fn: Json): Set<string> {
  return new Set(
    statementsOf(template, fn)
      .filter((statement) => asArray<string>(statement.Action).includes('sqs:SendMessage'))
      .flatMap((statement) => asArray<Json>(statement.Resource).map((resource) => resource['Fn::GetAtt'][0])),
  );
}

/** The queue policy statement that refuses any request not made over TLS. */
export function expectRefusesPlainHttp(template: Template, queueId: string): void {
  const statements = resourcesOf(template, 'AWS::SQS::QueuePolicy')
    .filter(([, policy]) => policy.Properties.Queues.some((queue: Json) => queue.Ref === queueId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
  expect(statements, queueId).toContainEqual({
    Action: 'sqs:*',
    Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    Effect: 'Deny',
    Principal: { AWS: '*' },
    Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
  });
}

/** The full path of an API Gateway resource, rebuilt from its PathPart and ParentId chain. */
export function pathOf(template: Template, resourceRef: Json): string {
  const parts: string[] = [];
  let ref = resourceRef;
  while (ref?.Ref) {
    const resource = resourceOf(template, 'AWS::ApiGateway::Resource', ref.Ref);
    parts.unshift(resource.Properties.PathPart);
    ref = resource.Properties.ParentId;
  }
  return `/${parts.join('/')}`;
}
