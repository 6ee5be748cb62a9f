/**
 * Building a stage's stack in a test, for what the stages synthesized once per run
 * (stage-synthesized.ts) cannot show: a registry entry changed, a setting refused, a stand-alone
 * function's grants, a synth that must fail. Bundling is skipped: these tests are about the
 * template, and esbuild would add seconds per function.
 */
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT } from 'aws-cdk-lib/cx-api';
import { buildPaymentsApp } from '#infra/payments-app.ts';
import { ServiceFunction, type ServiceResources } from '#infra/service-function.ts';
import { readRegistryFile } from '#infra/stage-registry.ts';
import { endpoints } from '#shared/api/all-endpoints.ts';
import type { AwsAccess } from '#shared/catalogue/access.ts';
import { stageTemplateOf } from '#test/support/stage-template.ts';

/** The stage registry of cdk.json, as `cdk synth` reads it. */
export const registry = readRegistryFile() as Record<string, Record<string, unknown>>;

/** The registry with one stage's entry changed, as the `stages` context. */
export const registryWith = (stage: string, entry: Record<string, unknown>) => ({
  stages: { ...registry, [stage]: entry },
});

/** An app with the registry of cdk.json (unless `context` gives another) and no bundling. */
export const appFor = (context: Record<string, unknown>) =>
  new App({ context: { 'aws:cdk:bundling-stacks': [], stages: registry, ...context } });

/**
 * A stage built and synthesized as one template. Its cdk-nag findings do not fail this synth: the
 * cdk-nag tests list them by name, and the other tests stay about the template.
 */
export function build(stage: string, context: Record<string, unknown> = {}) {
  const app = appFor({ stage, [FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT]: false, ...context });
  const stack = buildPaymentsApp(app);
  return { app, stack, template: stageTemplateOf(stack) };
}

/** A function outside any stage, for grants that the route table does not exercise. */
export function standAloneFunction(
  stack: Stack,
  id: string,
  access: AwsAccess[],
  resources: ServiceResources,
  sandbox = false,
) {
  return new ServiceFunction(stack, id, {
    entry: endpoints.listStores.entry,
    invokedBy: 'api',
    functionName: `grants-${id}`,
    access,
    resources,
    timeout: Duration.seconds(3),
    sandbox,
    logRetention: RetentionDays.ONE_DAY,
    logRemovalPolicy: RemovalPolicy.DESTROY,
  });
}

/** The logical id of a function's resource in its own stack. */
export const logicalIdOf = (fn: ServiceFunction) =>
  Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnFunction);
