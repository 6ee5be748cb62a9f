/**
 * The stage's REST API (infra/constructs/api.ts): a method per route calling its function, streamed
 * routes in STREAM mode, the stage's throttle and logs, API Gateway's own answers in the spec's error
 * format, the stack's outputs, and the API reference it serves.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { stageThrottling } from '#infra/constructs/api.ts';
import { stackName } from '#infra/naming.ts';
import { endpointEntries, endpoints } from '#shared/api/all-endpoints.ts';
import { synthesizedStages } from '#test/support/stage-synthesized.ts';
import {
  functionOf,
  type Json,
  pathOf,
  resourceOf,
  resourcesOf,
} from '#test/support/stage-template-queries.ts';

const { dev, prod } = await synthesizedStages();

describe('streamed routes', () => {
  const streamed = endpointEntries.filter(([, route]) => 'page' in route && route.streams);

  it('include the CSV export', () => {
    expect(streamed.map(([name]) => name)).toContain('exportTransactionsPage');
  });

  it.each(streamed)(
    '%s is integrated in STREAM mode, and its function times out before its integration, within 15 minutes',
    (name, route) => {
      const [functionId, fn] = functionOf(dev.template, 'dev', name);
      const method = resourcesOf(dev.template, 'AWS::ApiGateway::Method').find(
        ([, candidate]) =>
          candidate.Properties.HttpMethod === route.method &&
          pathOf(dev.template, candidate.Properties.ResourceId) === route.path,
      )?.[1];
      expect(method, name).toBeDefined();
      const integration = method.Properties.Integration;
      expect(integration.Type).toBe('AWS_PROXY');
      expect(integration.ResponseTransferMode).toBe('STREAM');
      const uri = JSON.stringify(integration.Uri);
      expect(uri).toContain('2021-11-15/functions/');
      expect(uri).toContain('/response-streaming-invocations');
      expect(uri).toContain(functionId);
      const integrationSeconds = integration.TimeoutInMillis / 1000;
      expect(fn.Properties.Timeout).toBeGreaterThan(29);
      expect(fn.Properties.Timeout).toBeLessThan(integrationSeconds);
      expect(integrationSeconds).toBeLessThanOrEqual(15 * 60);
    },
  );

  it('and only they: every other route is buffered, its integration the 29 s default', () => {
    const methods = resourcesOf(dev.template, 'AWS::ApiGateway::Method');
    const streams = methods.filter(
      ([, method]) => method.Properties.Integration?.ResponseTransferMode === 'STREAM',
    );
    expect(streams).toHaveLength(streamed.length);
  });
});

describe('the REST API', () => {
  it.each([
    ['dev', dev, endpointEntries],
    ['prod', prod, endpointEntries.filter(([, route]) => !route.sandboxOnly)],
  ])(
    'on %s has a method for every route deployed there, and no other, each calling its own function',
    (stage, { template }, deployed) => {
      const methods = resourcesOf(template, 'AWS::ApiGateway::Method');
      const found = methods.map(([, method]) => {
        const props = method.Properties;
        expect(props.AuthorizationType).toBe('NONE');
        expect(props.Integration.Type).toBe('AWS_PROXY');
        const uriParts: Json[] = props.Integration.Uri['Fn::Join'][1];
        const invoked = uriParts.find(
          (part) => part?.['Fn::GetAtt']?.[1] === 'Arn' || (part?.Ref && !part.Ref.startsWith('AWS::')),
        );
        // A money path's method invokes its function's `live` alias.
        const alias = invoked.Ref ? resourceOf(template, 'AWS::Lambda::Alias', invoked.Ref) : undefined;
        const functionId = alias ? alias.Properties.FunctionName.Ref : invoked['Fn::GetAtt'][0];
        return {
          route: `${props.HttpMethod} ${pathOf(template, props.ResourceId)}`,
          functionName: resourceOf(template, 'AWS::Lambda::Function', functionId).Properties.FunctionName,
        };
      });
      expect(found.sort((a, b) => a.route.localeCompare(b.route))).toEqual(
        deployed
          .map(([name, route]) => ({
            route: `${route.method} ${route.path}`,
            functionName: `${stackName(stage)}-${name}`,
          }))
          .sort((a, b) => a.route.localeCompare(b.route)),
      );
    },
  );

  it('throttles the whole stage, logs errors only and never bodies', () => {
    dev.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      MethodSettings: Match.arrayWith([
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: stageThrottling.rateLimit,
          ThrottlingBurstLimit: stageThrottling.burstLimit,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        }),
      ]),
    });
  });

  it('writes JSON access logs to a log group with a retention, and traces with X-Ray', () => {
    const [, stage] = resourcesOf(dev.template, 'AWS::ApiGateway::Stage')[0] as [string, Json];
    expect(stage.Properties.TracingEnabled).toBe(true);
    const fields = JSON.parse(stage.Properties.AccessLogSetting.Format);
    expect(fields).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
    const logGroupId = stage.Properties.AccessLogSetting.DestinationArn['Fn::GetAtt'][0];
    expect(
      resourceOf(dev.template, 'AWS::Logs::LogGroup', logGroupId).Properties.RetentionInDays,
    ).toBeGreaterThan(0);
  });

  const expectedGatewayResponses = [
    { type: 'DEFAULT_4XX', status: undefined, id: 'bad_request' },
    { type: 'DEFAULT_5XX', status: undefined, id: 'internal_error' },
    { type: 'MISSING_AUTHENTICATION_TOKEN', status: '404', id: 'not_found', message: 'Route not found' },
    { type: 'RESOURCE_NOT_FOUND', status: '404', id: 'not_found', message: 'Route not found' },
    { type: 'THROTTLED', status: '429', id: 'too_many_requests' },
    { type: 'REQUEST_TOO_LARGE', status: '413', id: 'request_too_large' },
    { type: 'WAF_FILTERED', status: '403', id: 'forbidden' },
    { type: 'INTEGRATION_TIMEOUT', status: '504' },
  ];

  it.each(expectedGatewayResponses)(
    'answers $type with status $status in the spec error format',
    (expected) => {
      const found = resourcesOf(dev.template, 'AWS::ApiGateway::GatewayResponse').filter(
        ([, response]) => response.Properties.ResponseType === expected.type,
      );
      expect(found).toHaveLength(1);
      const props = (found[0] as [string, Json])[1].Properties;
      expect(props.StatusCode).toBe(expected.status);
      expect(Object.keys(props.ResponseTemplates)).toEqual(['application/json']);
      // The gateway fills $context.error.messageString with a quoted JSON string.
      const body = JSON.parse(
        props.ResponseTemplates['application/json'].replaceAll('$context.error.messageString', '"a message"'),
      );
      expect(Object.keys(body).sort()).toEqual(['extras', 'id', 'message']);
      expect(body.extras).toBeNull();
      expect(typeof body.message).toBe('string');
      if (expected.id) expect(body.id).toBe(expected.id);
      if (expected.message) expect(body.message).toBe(expected.message);
    },
  );

  it("outputs the API URL, the table name, the alarm topic and the operators' role", () => {
    expect(Object.keys(dev.template.toJSON().Outputs).sort()).toEqual([
      'AlarmTopicArn',
      'ApiUrl',
      'OperatorRoleArn',
      'TableName',
    ]);
  });
});

describe('the API reference on a stage', () => {
  it('serves /openapi.json, /docs and its files without a key or any AWS access', () => {
    for (const name of ['openApiDocument', 'referencePage', 'referencePageAsset'] as const) {
      expect(endpoints[name].caller).toBe('public');
      expect(endpoints[name].access).toEqual([]);
      expect(dev.stack.functions).toContain(name);
    }
    dev.template.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: 'openapi.json' });
    dev.template.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: 'docs' });
  });

  it('compresses answers of 1 KB and more, the viewer among them', () => {
    dev.template.hasResourceProperties('AWS::ApiGateway::RestApi', { MinimumCompressionSize: 1024 });
  });
});
