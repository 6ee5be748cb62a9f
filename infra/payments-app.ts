import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { stackName, stagePattern } from '#infra/naming.ts';
import { PaymentsStack } from '#infra/stack.ts';
import { stageEnvironmentOf } from '#infra/stage-config.ts';

/** The stage comes from `-c stage=NAME` only: deploying to a default stage by accident is worse than an error. */
export function stageOf(app: App): string {
  const stage: unknown = app.node.tryGetContext('stage');
  if (stage === undefined || stage === '') {
    throw new Error(
      'No stage given: pass one with -c stage=NAME, for example `npm run synth -- -c stage=dev`',
    );
  }
  if (typeof stage !== 'string' || !stagePattern.test(stage)) {
    throw new Error(
      `Invalid stage ${JSON.stringify(stage)}: it becomes part of resource names, so it must match ${stagePattern}`,
    );
  }
  return stage;
}

/**
 * The stage's stack, checked by cdk-nag's AWS Solutions rules on every synth: an unacknowledged
 * finding fails `cdk synth` and the infra tests alike.
 */
export function buildPaymentsApp(app: App): PaymentsStack {
  const stage = stageOf(app);
  const stack = new PaymentsStack(app, stackName(stage), {
    stage,
    stageEnvironment: stageEnvironmentOf(app.node),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}
