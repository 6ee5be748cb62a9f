/**
 * Synthesizes one stage and writes it for the infra tests (stage-synthesized.ts): run by the infra
 * project's global setup as `node --import tsx test/support/stage-synthesized-writer.ts <stage> <file>`,
 * one process per stage, so the stages are built side by side while other test files run.
 */
import { rename, writeFile } from 'node:fs/promises';
import { type App, CfnResource, type Stack, Validations } from 'aws-cdk-lib';
import { CfnMethod } from 'aws-cdk-lib/aws-apigateway';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { resourceCountOf } from '#infra/function-groups.ts';
import { build } from '#test/support/stage-synth.ts';
import type { Acknowledgement, SynthesizedStageFile } from '#test/support/stage-synthesized.ts';
import { nestedStacksOf } from '#test/support/stage-template.ts';

/** Every acknowledgement of the app: where it is, which rule (and finding), and why. */
function acknowledgementsOf(app: App, stack: Stack): Acknowledgement[] {
  return app.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
      .map(([id, reason]) => ({
        path: construct.node.path,
        id: id.replace(/^annotation::/i, ''),
        reason,
        ...(CfnResource.isCfnResource(construct) ? { resourceType: construct.cfnResourceType } : {}),
        ...(construct instanceof CfnMethod
          ? { method: { httpMethod: construct.httpMethod, resourceId: stack.resolve(construct.resourceId) } }
          : {}),
      })),
  );
}

export function synthesize(stage: string): SynthesizedStageFile {
  const { app, stack, template } = build(stage);
  return {
    template: template.toJSON(),
    stack: {
      stackName: stack.stackName,
      account: stack.account,
      region: stack.region,
      terminationProtection: stack.terminationProtection,
      functions: [...stack.functions.keys()],
      stacks: [stack, ...nestedStacksOf(stack)].map((each) => ({
        id: each.node.id,
        resources: resourceCountOf(each),
      })),
    },
    nagReports: [new AwsSolutionsChecks(), new ServerlessChecks()].map((pack) => ({
      pack: pack.readPackName,
      violations: pack.validateScope(app).violations.map((violation) => ({
        severity: violation.severity,
        ruleName: violation.ruleName,
        constructPaths: violation.violatingResources.map((resource) => resource.constructPath),
      })),
    })),
    acknowledgements: acknowledgementsOf(app, stack),
  };
}

const [stage, file] = process.argv.slice(2);
if (!stage || !file) throw new Error('Usage: stage-synthesized-writer.ts <stage> <file>');
// Written whole, then renamed: a reader never sees half a file.
await writeFile(`${file}.partial`, JSON.stringify(synthesize(stage)));
await rename(`${file}.partial`, file);
