import { CfnResource, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges one cdk-nag finding on one CloudFormation resource, never on a construct above it:
 * an acknowledgement on a construct covers everything under it, including what is added later.
 * `finding` is the rule's own finding id where the rule reports them (`Resource::*`,
 * `Policy::arn:...`), so the same rule still fires for any other finding on that resource.
 */
export function acknowledge(construct: IConstruct, rule: string, reason: string, finding?: string): void {
  Validations.of(cfnResourceOf(construct)).acknowledge({
    id: finding === undefined ? rule : `${rule}[${finding}]`,
    reason,
  });
}

/** The construct itself if it is a resource, else its default child, which must be one. */
function cfnResourceOf(construct: IConstruct): CfnResource {
  if (CfnResource.isCfnResource(construct)) return construct;
  const child = construct.node.defaultChild;
  if (child && CfnResource.isCfnResource(child)) return child;
  throw new Error(`${construct.node.path} is not a CloudFormation resource: acknowledge on the resource`);
}

/** Rules that report one finding per offending entry, so an acknowledgement must name the entry. */
export const rulesWithFindings = ['AwsSolutions-IAM4', 'AwsSolutions-IAM5'] as const;
