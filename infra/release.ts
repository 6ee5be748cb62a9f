/**
 * `npm run release -- --stage NAME`: the deploy of a stage, then its smoke test, as one command, so
 * that no deploy goes unchecked. CloudFormation waits for CodeDeploy's traffic shift of the money
 * paths (a 10% canary for five minutes on production), so the smoke test runs against the new
 * version taking all the traffic. Production's smoke test is read-only and needs the stage's smoke
 * key in SMOKE_KEY; a sandbox stage's takes a sandbox payment end to end. A failure exits 1 and
 * points at the rollback procedure (docs/operations/rollout.md).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { stackName } from './naming.ts';
import { projectRoot } from './paths.ts';

const { values } = parseArgs({ options: { stage: { type: 'string' } } });
const stage = values.stage;
if (!stage) {
  console.error('Usage: npm run release -- --stage NAME');
  process.exit(2);
}
const outputsFile = path.join(projectRoot, 'cdk.out', `${stage}-outputs.json`);
const run = (command: string, args: string[]) =>
  spawnSync(command, args, { cwd: projectRoot, stdio: 'inherit', env: process.env }).status ?? 1;

if (
  run('npx', ['cdk', 'deploy', '--no-notices', '-c', `stage=${stage}`, '--outputs-file', outputsFile]) !== 0
) {
  console.error(`release: the deploy of ${stage} failed; CloudFormation rolled back what it had changed`);
  process.exit(1);
}
const outputs = JSON.parse(readFileSync(outputsFile, 'utf8')) as Record<string, Record<string, string>>;
const apiUrl = outputs[stackName(stage)]?.ApiUrl;
if (!apiUrl) {
  console.error(`release: no ApiUrl in ${outputsFile}`);
  process.exit(1);
}
if (run('npx', ['tsx', 'infra/smoke.ts', '--stage', stage, '--api-url', apiUrl]) !== 0) {
  console.error(
    `release: the smoke test of ${stage} failed after the deploy: roll back (docs/operations/rollout.md, "Rolling back")`,
  );
  process.exit(1);
}
console.log(`release: ${stage} deployed and smoke-tested`);
