/**
 * Adding routes never needs a hand-made split (issue 35): the dev stage with 50 routes more than it
 * declares, added here, still has every stack within the margin, the group the routes join opens
 * more nested stacks by itself, and each added route is wired (function, method, permission,
 * deployment) as a declared one is.
 */
import { type CfnResource, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT } from 'aws-cdk-lib/cx-api';
import { describe, expect, it } from 'vitest';
import {
  functionGroupOf,
  functionGroupStackIdOf,
  resourceCountOf,
  stackResourceMargin,
} from '#infra/function-groups.ts';
import { functionNameFor, stackName } from '#infra/naming.ts';
import type { ServiceFunction } from '#infra/service-function.ts';
import { PaymentsStack } from '#infra/stack.ts';
import { stageEntry } from '#infra/stage-registry.ts';
import { type EndpointName, endpointEntries, endpoints } from '#shared/api/all-endpoints.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';
import { appFor, registry } from '#test/support/stage-synth.ts';
import { synthesizedStages } from '#test/support/stage-synthesized.ts';
import { nestedStacksOf, stageTemplateOf } from '#test/support/stage-template.ts';
import { type Json, pathOf, resourcesOf } from '#test/support/stage-template-queries.ts';

const extraRouteCount = 50;

/** Dashboard pages as the home is declared, each at a path of its own: the fullest group grows. */
const extraRoutes = Array.from(
  { length: extraRouteCount },
  (_, index) =>
    [
      `extraRoute${index + 1}` as EndpointName,
      { ...endpoints.dashboardHome, path: `/dashboard/extra/route-${index + 1}` } as Endpoint,
    ] as const,
);

function buildWithExtraRoutes() {
  const app = appFor({ stage: 'dev', [FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT]: false });
  const stage = stageEntry(registry, 'dev');
  const stack = new PaymentsStack(app, stackName('dev'), {
    stage,
    env: { account: stage.account, region: stage.region },
    endpoints: [...endpointEntries, ...extraRoutes],
  });
  // Synthesizing runs the margin's check on every stack: over it, this throws.
  app.synth();
  return stack;
}

const stack = buildWithExtraRoutes();
const { dev } = await synthesizedStages();
const group = functionGroupOf(endpoints.dashboardHome.entry);
const stacksOfGroup = (ids: string[]) => ids.filter((id) => functionGroupStackIdOf(id)?.group === group);

describe(`the dev stage with ${extraRouteCount} routes more`, () => {
  it(`synthesizes with every stack at or under ${stackResourceMargin} resources`, () => {
    const counts = [stack, ...nestedStacksOf(stack)].map(
      (each) => [each.node.id, resourceCountOf(each)] as const,
    );
    for (const [id, count] of counts) expect(count, id).toBeLessThanOrEqual(stackResourceMargin);
    console.log(counts.map(([id, count]) => `${id}: ${count}`).join(', '));
  });

  it("opens more of the group's nested stacks by itself, and no other stack", () => {
    const before = dev.stack.stacks.map(({ id }) => id);
    const after = nestedStacksOf(stack).map((each) => each.node.id);
    expect(stacksOfGroup(after).length).toBeGreaterThan(stacksOfGroup(before).length);
    expect(after.filter((id) => functionGroupStackIdOf(id)?.group !== group).sort()).toEqual(
      before.filter((id) => id !== stack.node.id && functionGroupStackIdOf(id)?.group !== group).sort(),
    );
  });

  it("go on filling the group's last stack, then open the next", () => {
    const declared = endpointEntries.filter(([, route]) => functionGroupOf(route.entry) === group);
    const indexOf = (name: EndpointName) =>
      functionGroupStackIdOf(Stack.of(stack.functions.get(name) as ServiceFunction).node.id)?.index ?? 0;
    const lastDeclared = indexOf(declared.at(-1)?.[0] as EndpointName);
    const added = extraRoutes.map(([name]) => indexOf(name));
    expect([lastDeclared, lastDeclared + 1]).toContain(added[0]);
    // In declaration order: never back to an earlier stack, one stack after another.
    for (const [index, stackIndex] of added.entries()) {
      if (index === 0) continue;
      expect(stackIndex - (added[index - 1] as number), extraRoutes[index]?.[0]).toBeGreaterThanOrEqual(0);
      expect(stackIndex - (added[index - 1] as number), extraRoutes[index]?.[0]).toBeLessThanOrEqual(1);
    }
  });

  it('wires every added route: its function, its method invoking it, its permission, the deployment', () => {
    // Read once: templates are synthesized and searched once, not per route.
    const merged = stageTemplateOf(stack);
    const root = Template.fromStack(stack).toJSON();
    const [[, deployment]] = Object.entries(root.Resources).filter(
      ([, resource]) => (resource as Json).Type === 'AWS::ApiGateway::Deployment',
    ) as [[string, Json]];
    const extraPaths = new Set(extraRoutes.map(([, route]) => route.path));
    const methodsByRoute = new Map(
      resourcesOf(merged, 'AWS::ApiGateway::Method')
        .map(
          ([id, method]) =>
            [
              `${method.Properties.HttpMethod} ${pathOf(merged, method.Properties.ResourceId)}`,
              [id, method],
            ] as const,
        )
        .filter(([key]) => extraPaths.has(key.slice(key.indexOf(' ') + 1))),
    );
    const permissions = resourcesOf(merged, 'AWS::Lambda::Permission');
    const functionNames = new Set(
      resourcesOf(merged, 'AWS::Lambda::Function').map(([, fn]) => fn.Properties.FunctionName),
    );
    const methodIdsByStack = new Map<Stack, Set<string>>();
    const methodIdsOf = (home: Stack) => {
      let ids = methodIdsByStack.get(home);
      if (!ids) {
        ids = new Set(Object.keys(Template.fromStack(home).findResources('AWS::ApiGateway::Method')));
        methodIdsByStack.set(home, ids);
      }
      return ids;
    };
    for (const [name, route] of extraRoutes) {
      const fn = stack.functions.get(name) as ServiceFunction;
      expect(fn, name).toBeDefined();
      const home = Stack.of(fn);
      expect(functionGroupStackIdOf(home.node.id)?.group, name).toBe(group);
      expect(functionNames.has(functionNameFor('dev', name)), name).toBe(true);
      const functionId = home.getLogicalId(fn.node.defaultChild as CfnResource);
      const [methodId, method] = methodsByRoute.get(`${route.method} ${route.path}`) ?? [];
      expect(method, name).toBeDefined();
      expect(JSON.stringify(method.Properties.Integration.Uri), name).toContain(`"${functionId}"`);
      // The method is in its function's stack.
      expect(methodIdsOf(home).has(methodId as string), name).toBe(true);
      const granted = permissions.filter(([, permission]) =>
        JSON.stringify(permission.Properties.FunctionName).includes(`"${functionId}"`),
      );
      expect(granted, name).toHaveLength(1);
      const [, parts] = (granted[0] as [string, Json])[1].Properties.SourceArn['Fn::Join'] as [
        string,
        Json[],
      ];
      expect(parts.at(-1), name).toBe(`/dev/${route.method}${route.path}`);
      expect(deployment.DependsOn, name).toContain(
        stack.getLogicalId(home.nestedStackResource as CfnResource),
      );
    }
  });
});
