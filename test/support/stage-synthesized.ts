/**
 * The dev and prod stages as `cdk synth -c stage=…` builds them, synthesized once per run of the
 * infra project, not once per test file: stage-synthesized-global-setup.ts starts one writer per stage
 * (stage-synthesized-writer.ts) when the run starts, and a test file awaits the stages it reads.
 * Beside each stage's template, what the tests read of its live app and stack, taken by the writer:
 * the stack's name, environment and termination protection, its nested stacks' resource counts,
 * cdk-nag's report and every acknowledgement. A test that needs anything else of a live app builds
 * its own (stage-synth.ts).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Template } from 'aws-cdk-lib/assertions';
import { inject } from 'vitest';
import type { Json } from '#test/support/stage-template-queries.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the writers put each synthesized stage: `<stage>.json`, or `<stage>.error` if it failed. */
    synthesizedStagesDir: string;
  }
}

export const synthesizedStageNames = ['dev', 'prod'] as const;
export type SynthesizedStageName = (typeof synthesizedStageNames)[number];

/** One cdk-nag finding no acknowledgement covers. */
export interface NagViolation {
  severity?: string;
  ruleName: string;
  constructPaths: (string | undefined)[];
}

/** One acknowledgement of a cdk-nag rule (and finding): where it is and why. */
export interface Acknowledgement {
  /** The construct's path. */
  path: string;
  /** The rule, with its finding in brackets where it names one. */
  id: string;
  reason: string;
  /** The CloudFormation type of the construct, if it is a resource. */
  resourceType?: string;
  /** An API Gateway method's HTTP method and its resource, as the template references it. */
  method?: { httpMethod: string; resourceId: Json };
}

/** A stage as the writer leaves it: JSON only. */
export interface SynthesizedStageFile {
  /** The stage as one template across its nested stacks (stage-template.ts). */
  template: Json;
  /** What the tests read of the live stack. */
  stack: {
    stackName: string;
    account: string;
    region: string;
    terminationProtection: boolean;
    /** The names of the route functions (`stack.functions`). */
    functions: string[];
    /** The stack and each nested stack, by construct id, with `resourceCountOf` each. */
    stacks: { id: string; resources: number }[];
  };
  /** Each cdk-nag pack's findings on the whole app, as `validateScope` reports them. */
  nagReports: { pack: string; violations: NagViolation[] }[];
  /** Every acknowledgement of the app, in construct order. */
  acknowledgements: Acknowledgement[];
}

export type SynthesizedStage = Omit<SynthesizedStageFile, 'template'> & { template: Template };

export const synthesizedStageFile = (dir: string, stage: string) => path.join(dir, `${stage}.json`);
export const synthesizedStageError = (dir: string, stage: string) => path.join(dir, `${stage}.error`);

/** Long enough for a synth on a loaded machine; the writer reports its own failures at once. */
const waitLimitMs = 15 * 60_000;

const loaded = new Map<SynthesizedStageName, Promise<SynthesizedStage>>();

async function load(stage: SynthesizedStageName): Promise<SynthesizedStage> {
  const dir = inject('synthesizedStagesDir');
  if (!dir) throw new Error('No synthesized stages: run the infra project, whose global setup writes them');
  const file = synthesizedStageFile(dir, stage);
  const failed = synthesizedStageError(dir, stage);
  const deadline = Date.now() + waitLimitMs;
  while (!existsSync(file)) {
    if (existsSync(failed)) throw new Error(await readFile(failed, 'utf8'));
    if (Date.now() > deadline)
      throw new Error(`Stage ${stage} was not synthesized in ${waitLimitMs / 60_000} minutes`);
    await sleep(100);
  }
  const written = JSON.parse(await readFile(file, 'utf8')) as SynthesizedStageFile;
  return { ...written, template: Template.fromJSON(written.template) };
}

/** The stage synthesized for this run, once it is written. */
export function synthesizedStage(stage: SynthesizedStageName): Promise<SynthesizedStage> {
  let stagePromise = loaded.get(stage);
  if (!stagePromise) {
    stagePromise = load(stage);
    loaded.set(stage, stagePromise);
  }
  return stagePromise;
}

/**
 * Both stages synthesized for this run, and the two as an `it.each` table of `[name, stage]`, for
 * the tests that hold on every stage.
 */
export async function synthesizedStages() {
  const [dev, prod] = await Promise.all([synthesizedStage('dev'), synthesizedStage('prod')]);
  const bothStages: [SynthesizedStageName, SynthesizedStage][] = [
    ['dev', dev],
    ['prod', prod],
  ];
  return { dev, prod, bothStages };
}
