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
 * What a stack may hold at most: 160 of CloudFormation's limit stay free. Crossing it fails the
 * synth. It was 400, then 440 when the API's methods still sat in the stage's stack and the
 * dashboard's group in one nested stack; since issue 35 a group's functions fill nested stacks up to
 * `nestedStackFillBudget` and the next one opens by itself, and the API's methods and paths go with
 * their functions, so no stack nears it by adding routes (docs/architecture/stacks.md).
 */
export const stackResourceMargin = 340;

/**
 * How full a group's nested stack may be before the group's next function opens the next one: its
 * resources counted so far, plus the API methods and paths reserved for its routes (made once every
 * route is placed). A route costs up to about 18 (function, role, policies, log group, alarms,
 * permission, a money path's version, alias, deployment group and alias alarm, its method and new
 * path parts), and a group's composite alarm is added after: a stack stops at about 320, under the
 * margin.
 */
export const nestedStackFillBudget = 300;

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

/**
 * The nested stacks of a group's functions, by construct id in the parent: the first is
 * `<Group>Functions` (as before groups filled), the next `<Group>Functions2`, `<Group>Functions3`...
 */
export const functionGroupStackId = (group: string, index = 1) =>
  `${pascalCaseOf(group)}Functions${index > 1 ? index : ''}`;

/** The group a nested stack's id names, and its place among the group's stacks (1 for the first). */
export function functionGroupStackIdOf(
  id: string,
): { readonly group: string; readonly index: number } | undefined {
  const match = /^([A-Z][A-Za-z0-9]*?)Functions(\d*)$/.exec(id);
  if (!match) return undefined;
  const group = (match[1] as string).replace(/(?<=[a-z0-9])([A-Z])/g, '-$1').toLowerCase();
  return { group, index: match[2] ? Number(match[2]) : 1 };
}

/** Stacks whose functions go into nested stacks, each group's stacks in the order they opened. */
const groupedStacks = new WeakMap<Stack, Map<string, NestedStack[]>>();

/** Resources a nested stack will hold that are not made yet (the API's methods and paths). */
const reservedResources = new WeakMap<Stack, number>();

/**
 * From now on every `ServiceFunction` created in `stack` is created in a nested stack of its
 * group instead (with its role, policies, log group, and what is built beside it with
 * `Stack.of(fn)`), and every stack of the tree, nested ones included, is held to the resource
 * margin at synth.
 */
export function groupFunctionsOf(stack: Stack): void {
  groupedStacks.set(stack, new Map());
  checkResourceMargin(stack);
}

/** What `stack` holds, counted now, with what is reserved in it for later. */
export const filledResourcesOf = (stack: Stack) =>
  resourceCountOf(stack) + (reservedResources.get(stack) ?? 0);

/** Counts `count` resources in `stack` before they are made, so that its group fills it no further. */
export function reserveResources(stack: Stack, count: number): void {
  reservedResources.set(stack, (reservedResources.get(stack) ?? 0) + count);
}

/**
 * Where a function of `entry` is created when asked for in `scope`: when `scope` is a grouping
 * stack, the last nested stack of its group, unless that one is filled to `nestedStackFillBudget`
 * (or the group has none yet), in which case the group's next one, made here; otherwise `scope`
 * itself. The group's functions are asked for in declaration order, so they fill its stacks in
 * that order: a new route lands in its group's last stack, and a full one opens the next, by rule.
 */
export function functionScopeOf(scope: Construct, entry: string): Construct {
  const groups = Stack.isStack(scope) ? groupedStacks.get(scope) : undefined;
  if (!(groups && Stack.isStack(scope))) return scope;
  const group = functionGroupOf(entry);
  const stacks = groups.get(group) ?? [];
  groups.set(group, stacks);
  const last = stacks.at(-1);
  if (last && filledResourcesOf(last) < nestedStackFillBudget) return last;
  const index = stacks.length + 1;
  const nested = new NestedStack(scope, functionGroupStackId(group, index), {
    description: `The ${group} functions of ${scope.stackName}${index > 1 ? ` (${index})` : ''}: each with its role, policies, log group and alarms, and its routes' API methods`,
  });
  stacks.push(nested);
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
        `Stack ${stack.node.path} holds ${count} resources, over the margin of ${stackResourceMargin} kept under CloudFormation's ${cloudFormationResourceLimit}: lower nestedStackFillBudget, or move resources out of the stage's stack (docs/architecture/stacks.md)`,
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
