import { CfnResource, type Duration, NestedStack, Stack, Token } from 'aws-cdk-lib';
import {
  AwsIntegration,
  type IntegrationConfig,
  type Method,
  ResponseTransferMode,
} from 'aws-cdk-lib/aws-apigateway';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct, IConstruct } from 'constructs';

/**
 * CloudFormation's limit on the resources of one template, the parent's and each nested stack's
 * alike; CDK refuses a stack over it at synth (`TooManyResourcesInStack`).
 */
export const cloudFormationResourceLimit = 500;

/**
 * What a stack may hold at most: 60 of CloudFormation's limit stay free, so a capability of a
 * dozen routes (about 25 resources in the stage's stack, 70 in a group's) never lands a stage one
 * change away from the limit. Crossing it fails the synth, which is the time to add a group or move
 * resources out. It was 400 until the withdrawals (issue 34) found dev's stack at 386 with nothing
 * left to move but the API's methods (docs/architecture/stacks.md, "Headroom").
 */
export const stackResourceMargin = 440;

/**
 * The group of a function: the directory of its entry under `functions/` (`payment-requests`,
 * `transfers`, `workers`...), which is the API resource it serves (the style's
 * `functions/<resource>/<verb>-<resource>.ts`). The declaration's folder decides it, so a new
 * route lands in its resource's group, and a new directory makes a new group, with no stack code.
 */
export function functionGroupOf(entry: string): string {
  const match = /^functions\/([a-z0-9-]+)\//.exec(entry);
  if (!match) throw new Error(`Entry ${entry} is not under functions/<resource>/: its group is unknown`);
  return match[1] as string;
}

/** `payment-requests` → `PaymentRequests`. */
const pascalCaseOf = (name: string) =>
  name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/** The nested stack of a group's functions: its construct id in the parent. */
export const functionGroupStackId = (group: string) => `${pascalCaseOf(group)}Functions`;

/** Stacks whose functions go into nested stacks, one per group. */
const groupedStacks = new WeakSet<Stack>();

/**
 * From now on every `ServiceFunction` created in `stack` is created in the nested stack of its
 * group instead (with its role, policies, log group, and what is built beside it with
 * `Stack.of(fn)`), and every stack of the tree, nested ones included, is held to the resource
 * margin at synth.
 */
export function groupFunctionsOf(stack: Stack): void {
  groupedStacks.add(stack);
  checkResourceMargin(stack);
}

/**
 * Where a function of `entry` is created when asked for in `scope`: the nested stack of its group
 * when `scope` is a grouping stack, made on first use; otherwise `scope` itself.
 */
export function functionScopeOf(scope: Construct, entry: string): Construct {
  if (!(Stack.isStack(scope) && groupedStacks.has(scope))) return scope;
  const group = functionGroupOf(entry);
  const id = functionGroupStackId(group);
  const existing = scope.node.tryFindChild(id);
  if (existing) return existing;
  const nested = new NestedStack(scope, id, {
    description: `The ${group} functions of ${scope.stackName}: each with its role, policies, log group and alarms`,
  });
  checkResourceMargin(nested);
  return nested;
}

/** The stack at the top of `construct`'s tree of nested stacks. */
export function rootStackOf(construct: IConstruct): Stack {
  let stack = Stack.of(construct);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack;
}

/** The CloudFormation resources of `stack`'s own template (a nested stack is one resource here). */
export function resourceCountOf(stack: Stack): number {
  return stack.node
    .findAll()
    .filter((construct) => CfnResource.isCfnResource(construct) && Stack.of(construct) === stack).length;
}

function checkResourceMargin(stack: Stack): void {
  stack.node.addValidation({
    validate: () => {
      const count = resourceCountOf(stack);
      if (count <= stackResourceMargin) return [];
      return [
        `Stack ${stack.node.path} holds ${count} resources, over the margin of ${stackResourceMargin} kept under CloudFormation's ${cloudFormationResourceLimit}: split its functions into more groups (directories of functions/) or move resources into a nested stack (README, "CloudFormation's 500 resources")`,
      ];
    },
  });
}

/**
 * API Gateway's proxy integration with a function, whose invoke permission is created beside the
 * function, in its group's stack, rather than in the API's (as `LambdaIntegration` does): one
 * resource per route fewer in the parent. The permission names the method with the stage's name
 * rather than a reference to the API's stage, which depends on the deployment, which depends on
 * the methods, which depend on the function: a reference would make the stacks depend on each other.
 */
export class GroupedLambdaIntegration extends AwsIntegration {
  /**
   * `streamedFor`: a streamed answer (Lambda response streaming, as `LambdaIntegration` makes it
   * with `responseTransferMode: STREAM`): the streaming invocation path, and an integration
   * timeout past the 29 s of a buffered one (up to 15 minutes when streaming).
   */
  constructor(
    private readonly handler: IFunction,
    private readonly stageName: string,
    streamedFor?: Duration,
  ) {
    super({
      proxy: true,
      service: 'lambda',
      path: streamedFor
        ? `2021-11-15/functions/${handler.functionArn}/response-streaming-invocations`
        : `2015-03-31/functions/${handler.functionArn}/invocations`,
      ...(streamedFor
        ? { options: { responseTransferMode: ResponseTransferMode.STREAM, timeout: streamedFor } }
        : {}),
    });
  }

  override bind(method: Method): IntegrationConfig {
    const config = super.bind(method);
    // Path parameters stand for any value, as in `Method.methodArn`.
    const path = method.resource.path.replace(/\{[^}]*\}/g, '*');
    this.handler.addPermission(`ApiInvoke${method.httpMethod}`, {
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: method.api.arnForExecuteApi(method.httpMethod, path, this.stageName),
    });
    // A renamed function redeploys the API, as with `LambdaIntegration`.
    const functionName = (this.handler.node.defaultChild as CfnFunction | undefined)?.functionName;
    return functionName && !Token.isUnresolved(functionName)
      ? { ...config, deploymentToken: JSON.stringify({ functionName }) }
      : config;
  }
}
