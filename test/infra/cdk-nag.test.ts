/**
 * cdk-nag's AWS Solutions and Serverless checks on every stage (infra/nag.ts, run on every synth by
 * infra/payments-app.ts): no finding left unacknowledged, each acknowledgement on one resource with
 * its reason, and a synth that fails on a finding nobody justified.
 */
import { CfnMethod } from 'aws-cdk-lib/aws-apigateway';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { rulesWithFindings } from '#infra/nag.ts';
import { stackName } from '#infra/naming.ts';
import { buildPaymentsApp } from '#infra/payments-app.ts';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import { appFor } from '#test/support/stage-synth.ts';
import { synthesizedStages } from '#test/support/stage-synthesized.ts';
import { pathOf } from '#test/support/stage-template-queries.ts';

const { dev, prod, bothStages } = await synthesizedStages();

// A test that builds and synthesizes a whole stage of its own, cdk-nag's packs included: on a
// machine whose cores are busy with other work that has taken over two minutes.
const wholeSynthTimeout = 360_000;

describe('cdk-nag AWS Solutions and Serverless checks', () => {
  it.each(bothStages)('report no unacknowledged finding on %s', (_stage, { nagReports }) => {
    expect(nagReports.map(({ pack }) => pack)).toEqual(['AwsSolutions', 'Serverless']);
    for (const report of nagReports) {
      expect(
        report.violations.map(
          (violation) =>
            `${violation.severity} ${violation.ruleName} at ${violation.constructPaths.join(', ')}`,
        ),
      ).toEqual([]);
    }
  });

  it.each(bothStages)(
    'on %s acknowledge on single resources, naming the finding where the rule reports findings',
    (_stage, { acknowledgements }) => {
      expect(acknowledgements.length).toBeGreaterThan(0);
      for (const { path, id, reason, resourceType } of acknowledgements) {
        // On a construct above a resource, it would also cover whatever is added under it later.
        expect(resourceType, `${id} at ${path}`).toBeDefined();
        expect(reason.length, `${id} at ${path}`).toBeGreaterThan(30);
        if (rulesWithFindings.some((rule) => id.startsWith(rule))) {
          expect(id, path).toMatch(/^[\w-]+\[.+\]$/);
        }
      }
    },
  );

  it('give public routes their own reason, never the API-key one', () => {
    const reasonOf = new Map<string, string>();
    for (const { id, reason, resourceType, method } of dev.acknowledgements) {
      if (id !== 'AwsSolutions-APIG4') continue;
      expect(resourceType).toBe(CfnMethod.CFN_RESOURCE_TYPE_NAME);
      const path = pathOf(dev.template, method?.resourceId);
      reasonOf.set(`${method?.httpMethod} ${path}`, reason);
    }
    const apiKeyReason = /API keys, checked by the handler wrapper/;
    for (const [name, route] of endpointEntries) {
      const reason = reasonOf.get(`${route.method} ${route.path}`);
      if (route.caller !== 'public') {
        expect(reason, name).toMatch(apiKeyReason);
        continue;
      }
      expect(reason, name).not.toMatch(apiKeyReason);
      expect(reason, name).toMatch(
        route.path.startsWith('/provider_callbacks/')
          ? /provider's valid signature/
          : /payer opens in a browser/,
      );
    }
  });

  it(
    'fail the synth on a wildcard grant nobody justified, even on a role with an acknowledged X-Ray wildcard',
    () => {
      const app = appFor({ stage: 'dev' });
      const stack = buildPaymentsApp(app);
      stack.functions
        .get('listStores')
        ?.addToRolePolicy(
          new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: ['*'] }),
        );
      expect(() => app.synth()).toThrow(/AwsSolutions-IAM5\[Resource::\*\]/);
    },
    wholeSynthTimeout,
  );

  it(
    'run the Serverless pack on every synth',
    () => {
      const app = appFor({ stage: 'dev' });
      const stack = buildPaymentsApp(app);
      new Queue(stack, 'QueueWithoutDeadLetters', { enforceSSL: true });
      expect(() => app.synth()).toThrow(/Serverless-SQSRedrivePolicy/);
    },
    wholeSynthTimeout,
  );

  it.each([
    ['dev', dev, [`${stackName('dev')}/SandboxProviderSecret/Resource`]],
    // The providers' and Smile ID's keys are issued and rotated in their own portals
    // (provider-secrets.test.ts).
    [
      'prod',
      prod,
      [
        `${stackName('prod')}/WaveProviderSecret/Resource`,
        `${stackName('prod')}/MtnProviderSecret/Resource`,
        `${stackName('prod')}/PawapayProviderSecret/Resource`,
        `${stackName('prod')}/SmileIdSecret/Resource`,
      ],
    ],
  ])(
    'acknowledge secret rotation (SMG4) on %s on the sandbox, provider and identity secrets alone',
    (_stage, { acknowledgements }, expected) => {
      const acknowledgedAt = acknowledgements
        .filter(({ id }) => id.includes('AwsSolutions-SMG4'))
        .map(({ path, reason }) => {
          expect(reason.length).toBeGreaterThan(20);
          return path;
        });
      expect(acknowledgedAt).toEqual(expected);
    },
  );

  it('fail the synth on an unacknowledged finding', () => {
    const app = appFor({ stage: 'dev' });
    const stack = buildPaymentsApp(app);
    new Bucket(stack, 'UnloggedBucket');
    expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
  });
});
