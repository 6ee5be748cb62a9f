import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { checkNameLimits, stackName } from '#infra/naming.ts';
import { PaymentsStack } from '#infra/stack.ts';
import { refuseCommandLineSettings } from '#infra/stage-config.ts';
import { registryContextKey, type StageEntry, stageEntry } from '#infra/stage-registry.ts';

/** The stage comes from `-c stage=NAME` only: deploying to a default stage by accident is worse than an error. */
export function stageOf(app: App): StageEntry {
  const stage: unknown = app.node.tryGetContext('stage');
  if (stage === undefined || stage === '') {
    throw new Error(
      'No stage given: pass one with -c stage=NAME, for example `npm run synth -- -c stage=dev`',
    );
  }
  if (typeof stage !== 'string') throw new Error(`Invalid stage ${JSON.stringify(stage)}: give a name`);
  refuseCommandLineSettings(app.node);
  const entry = stageEntry(app.node.tryGetContext(registryContextKey), stage);
  checkNameLimits(stage);
  return entry;
}

/**
 * The stage's stack, checked by cdk-nag's AWS Solutions and Serverless rules on every synth: an
 * unacknowledged finding fails `cdk synth` and the infra tests alike.
 */
export function buildPaymentsApp(app: App): PaymentsStack {
  const stage = stageOf(app);
  const stack = new PaymentsStack(app, stackName(stage.name), {
    stage,
    env: { account: stage.account, region: stage.region },
    // Production cannot be deleted by a mistaken `cdk destroy`; sandboxes are meant to be.
    terminationProtection: stage.kind === 'production',
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return stack;
}
