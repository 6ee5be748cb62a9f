/**
 * What keeps production running under load and through deploys, asserted on the synthesized prod
 * stage (dev where it differs): concurrency budgets, canary rollout of the money paths, the WAF's
 * overrides and per-key answer, the providers' callbacks' own throttle, and alarms that page for a
 * reason. Each stage is synthesized once for the whole file.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT } from 'aws-cdk-lib/cx-api';
import { describe, expect, it } from 'vitest';
import {
  apiMinimumShare,
  concurrencyBudgetFor,
  defaultAccountConcurrencyLimit,
  lambdaMinimumUnreserved,
} from '#infra/concurrency-budget.ts';
import { providerCallbackThrottling, stageThrottling } from '#infra/constructs/api.ts';
import { iteratorAgeAlarm } from '#infra/constructs/function-alarms.ts';
import {
  operatorDownAlarm,
  paymentFailureRateAlarm,
  wafBlockedAlarm,
  webhookFailureRateAlarm,
} from '#infra/constructs/observability.ts';
import { pagingAlarmName } from '#infra/constructs/paging.ts';
import { liveAliasName, moneyPathEndpoints, rollbackAlarm } from '#infra/constructs/rollout.ts';
import {
  ApiWebAcl,
  commonRuleSetCountedRules,
  rateLimitedRetryAfterSeconds,
  wafRateLimits,
} from '#infra/constructs/web-acl.ts';
import { cloudFormationResourceLimit, resourceCountOf } from '#infra/function-groups.ts';
import { stackName } from '#infra/naming.ts';
import { buildPaymentsApp } from '#infra/payments-app.ts';
import { defaultApiKeyRateLimitPerMinute } from '#infra/stage-config.ts';
import { readRegistryFile, stageEntry } from '#infra/stage-registry.ts';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import { workerEntries } from '#shared/catalogue/queue-workers.ts';
import { scheduleEntries } from '#shared/catalogue/schedules.ts';
import { providerCodes } from '#shared/domain/payment-methods.ts';
import { requestLimits } from '#shared/http/request-limits.ts';
import { nestedStacksOf, stageTemplateOf } from '#test/support/stage-template.ts';

const registry = readRegistryFile() as Record<string, Record<string, unknown>>;

function build(stage: string, stages: Record<string, unknown> = registry) {
  const app = new App({
    context: {
      'aws:cdk:bundling-stacks': [],
      stages,
      stage,
      [FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT]: false,
    },
  });
  const stack = buildPaymentsApp(app);
  return { stack, template: stageTemplateOf(stack) };
}

const prod = build('prod');
const dev = build('dev');

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped.
type Json = any;
const resourcesOf = (template: Template, type: string): [string, Json][] =>
  Object.entries(template.findResources(type));
const resourceOf = (template: Template, type: string, id: string): Json => template.findResources(type)[id];

function functionOf(template: Template, stage: string, name: string): [string, Json] {
  const found = resourcesOf(template, 'AWS::Lambda::Function').filter(
    ([, fn]) => fn.Properties.FunctionName === `${stackName(stage)}-${name}`,
  );
  expect(found, name).toHaveLength(1);
  return found[0] as [string, Json];
}

const alarmNamed = (template: Template, name: string): Json => {
  const found = resourcesOf(template, 'AWS::CloudWatch::Alarm').filter(
    ([, alarm]) => alarm.Properties.AlarmName === name,
  );
  expect(found, name).toHaveLength(1);
  return (found[0] as [string, Json])[1].Properties;
};

const metricNamesOf = (alarm: Json): string[] =>
  (alarm.Metrics ?? []).flatMap((metric: Json) =>
    metric.MetricStat ? [metric.MetricStat.Metric.MetricName] : [],
  );

const prodBudget = concurrencyBudgetFor(
  stageEntry(registry, 'prod').accountConcurrencyLimit,
  scheduleEntries.map(([name]) => name),
);

describe('concurrency budgets on prod', () => {
  it("cap each queue worker's event source at its share, reserving nothing", () => {
    for (const [name] of workerEntries.filter(([, worker]) => !worker.sandboxOnly)) {
      const [functionId, fn] = functionOf(prod.template, 'prod', name);
      expect(fn.Properties.ReservedConcurrentExecutions, name).toBeUndefined();
      const [[, mapping]] = resourcesOf(prod.template, 'AWS::Lambda::EventSourceMapping').filter(
        ([, candidate]) => candidate.Properties.FunctionName.Ref === functionId,
      ) as [[string, Json]];
      expect(mapping.Properties.ScalingConfig, name).toEqual({
        MaximumConcurrency: prodBudget.workerMaximumConcurrency[name],
      });
    }
  });

  it('reserve concurrency for every other background function, and none for an API function', () => {
    for (const [name, reserved] of Object.entries(prodBudget.reservedConcurrency)) {
      const [, fn] = functionOf(prod.template, 'prod', name);
      expect(fn.Properties.ReservedConcurrentExecutions, name).toBe(reserved);
      expect(reserved, name).toBeGreaterThanOrEqual(1);
    }
    for (const [name, route] of endpointEntries) {
      if (route.sandboxOnly) continue;
      const [, fn] = functionOf(prod.template, 'prod', name);
      expect(fn.Properties.ReservedConcurrentExecutions, name).toBeUndefined();
    }
    // The sweeps run one at a time.
    for (const [name] of scheduleEntries) expect(prodBudget.reservedConcurrency[name]).toBe(1);
  });

  it('leave the API at least its share however slow the webhook receivers are', () => {
    const limit = prodBudget.accountLimit;
    const background =
      Object.values(prodBudget.reservedConcurrency).reduce((a, b) => a + b, 0) +
      Object.values(prodBudget.workerMaximumConcurrency).reduce((a, b) => a + b, 0);
    expect(limit - background).toBe(prodBudget.apiConcurrency);
    expect(prodBudget.apiConcurrency).toBeGreaterThanOrEqual(limit * apiMinimumShare);
    // The sender holds an execution for as long as a receiver takes (30 s in the interface), so its
    // cap, not the receivers, bounds what it takes; the stage's whole throttle fits in the rest.
    expect(prodBudget.workerMaximumConcurrency.sendWebhooks).toBeLessThan(limit * 0.2);
    expect(prodBudget.apiConcurrency).toBeGreaterThan(stageThrottling.burstLimit / 2);
  });

  it('default to a limit below the usual 1,000, and scale with the limit the stage gives', () => {
    expect(defaultAccountConcurrencyLimit).toBeLessThan(1000);
    expect(stageEntry(registry, 'prod').accountConcurrencyLimit).toBe(
      (registry.prod?.accountConcurrencyLimit as number | undefined) ?? defaultAccountConcurrencyLimit,
    );
    const larger = concurrencyBudgetFor(1000, ['sweepUnsettledPayouts']);
    expect(larger.workerMaximumConcurrency.sendWebhooks).toBe(100);
    expect(larger.apiConcurrency).toBeGreaterThanOrEqual(500);
  });

  it('refuse at synth a limit that would leave the API less than its share, or Lambda too few unreserved', () => {
    expect(() =>
      build('prod', {
        ...registry,
        prod: { ...registry.prod, accountConcurrencyLimit: lambdaMinimumUnreserved },
      }),
    ).toThrow(/Stage "prod" in cdk\.json: accountConcurrencyLimit 100: .*unreserved/);
    expect(() =>
      concurrencyBudgetFor(
        130,
        scheduleEntries.map(([name]) => name),
      ),
    ).not.toThrow();
    expect(() => stageEntry({ prod: { ...registry.prod, accountConcurrencyLimit: '1000' } }, 'prod')).toThrow(
      /accountConcurrencyLimit: must be a whole number/,
    );
  });
});

describe('safe rollout of the money paths', () => {
  const deploymentGroups = (template: Template) => resourcesOf(template, 'AWS::CodeDeploy::DeploymentGroup');

  it.each(moneyPathEndpoints)(
    '%s is invoked through its live alias, shifted by CodeDeploy on prod',
    (name) => {
      const [functionId] = functionOf(prod.template, 'prod', name);
      const aliases = resourcesOf(prod.template, 'AWS::Lambda::Alias').filter(
        ([, alias]) => alias.Properties.FunctionName.Ref === functionId,
      );
      expect(aliases).toHaveLength(1);
      const [aliasId, alias] = aliases[0] as [string, Json];
      expect(alias.Properties.Name).toBe(liveAliasName);
      const version = resourceOf(
        prod.template,
        'AWS::Lambda::Version',
        alias.Properties.FunctionVersion['Fn::GetAtt'][0],
      );
      expect(version.Properties.FunctionName.Ref).toBe(functionId);
      // CloudFormation hands the alias's update to CodeDeploy.
      expect(alias.UpdatePolicy.CodeDeployLambdaAliasUpdate).toBeDefined();

      // The method and its permission name the alias, not the function.
      const route = endpointEntries.find(([routeName]) => routeName === name)?.[1];
      const methods = resourcesOf(prod.template, 'AWS::ApiGateway::Method').filter(([, method]) =>
        JSON.stringify(method.Properties.Integration?.Uri ?? '').includes(`{"Ref":"${aliasId}"}`),
      );
      expect(methods.map(([, method]) => method.Properties.HttpMethod)).toEqual([route?.method]);
      expect(
        resourcesOf(prod.template, 'AWS::Lambda::Permission').filter(
          ([, permission]) => permission.Properties.FunctionName.Ref === aliasId,
        ),
      ).toHaveLength(1);

      const groups = deploymentGroups(prod.template).filter(
        ([, group]) => group.Properties.DeploymentGroupName === `${stackName('prod')}-${name}`,
      );
      expect(groups).toHaveLength(1);
      const group = (groups[0] as [string, Json])[1].Properties;
      expect(group.DeploymentConfigName).toBe('CodeDeployDefault.LambdaCanary10Percent5Minutes');
      expect(group.AutoRollbackConfiguration).toEqual({
        Enabled: true,
        Events: expect.arrayContaining([
          'DEPLOYMENT_FAILURE',
          'DEPLOYMENT_STOP_ON_REQUEST',
          'DEPLOYMENT_STOP_ON_ALARM',
        ]),
      });
      expect(group.AlarmConfiguration.Enabled).toBe(true);
      const [alarmRef] = group.AlarmConfiguration.Alarms;
      const alarm = resourcesOf(prod.template, 'AWS::CloudWatch::Alarm').find(
        ([id]) => JSON.stringify(alarmRef.Name) === JSON.stringify({ Ref: id }),
      )?.[1].Properties;
      // The alarm watches the alias itself, by rate.
      const aliasMetrics = alarm.Metrics.filter((metric: Json) => metric.MetricStat);
      expect(aliasMetrics.map((metric: Json) => metric.MetricStat.Metric.MetricName).sort()).toEqual([
        'Errors',
        'Invocations',
        'Throttles',
      ]);
      for (const metric of aliasMetrics) {
        expect(metric.MetricStat.Metric.Dimensions).toContainEqual({
          Name: 'Resource',
          Value: { 'Fn::Join': ['', [{ Ref: functionId }, `:${liveAliasName}`]] },
        });
      }
      expect(alarm.Threshold).toBe(rollbackAlarm.percent);
    },
  );

  it('deploys all at once on a sandbox stage, still through the alias', () => {
    const groups = deploymentGroups(dev.template);
    expect(groups.length).toBe(moneyPathEndpoints.length);
    for (const [, group] of groups) {
      expect(group.Properties.DeploymentConfigName).toBe('CodeDeployDefault.LambdaAllAtOnce');
    }
  });

  it('leaves every other function without an alias', () => {
    const aliased = new Set(
      resourcesOf(prod.template, 'AWS::Lambda::Alias').map(([, alias]) => alias.Properties.FunctionName.Ref),
    );
    expect(aliased.size).toBe(moneyPathEndpoints.length);
  });
});

describe('the WAF on prod', () => {
  const [, acl] = resourcesOf(prod.template, 'AWS::WAFv2::WebACL')[0] as [string, Json];
  const ruleNamed = (name: string) => acl.Properties.Rules.find((rule: Json) => rule.Name === name);

  it("counts the common rule set's 8 KB body limit and its missing User-Agent rule instead of blocking", () => {
    const common = ruleNamed('AWSManagedRulesCommonRuleSet');
    expect(common.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toEqual(
      commonRuleSetCountedRules.map((name) => ({ Name: name, ActionToUse: { Count: {} } })),
    );
    expect(commonRuleSetCountedRules).toEqual(['SizeRestrictions_BODY', 'NoUserAgent_HEADER']);
    // Our 16 KiB limit, answered 413, is evaluated before the group.
    const body = ruleNamed('BodyTooLarge');
    expect(body.Priority).toBeLessThan(common.Priority);
    expect(body.Statement.SizeConstraintStatement.Size).toBe(16 * 1024);
    expect(requestLimits.bodyBytes).toBe(16 * 1024);
    expect(body.Action.Block.CustomResponse.ResponseCode).toBe(413);
  });

  it("answers a key over its limit 429 with Retry-After and the spec's error body", () => {
    const perKey = ruleNamed('RatePerApiKeyId');
    expect(perKey.Statement.RateBasedStatement).toMatchObject({
      Limit: defaultApiKeyRateLimitPerMinute,
      EvaluationWindowSec: 60,
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: [{ Header: expect.objectContaining({ Name: 'x-api-key-id' }) }],
    });
    const response = perKey.Action.Block.CustomResponse;
    expect(response.ResponseCode).toBe(429);
    expect(response.ResponseHeaders).toEqual([
      { Name: 'Retry-After', Value: String(rateLimitedRetryAfterSeconds) },
    ]);
    const body = acl.Properties.CustomResponseBodies[response.CustomResponseBodyKey];
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual({
      id: 'too_many_requests',
      message: 'Too many requests',
      extras: null,
    });
    // The default is today's: a fifth of the stage's throttle.
    expect(defaultApiKeyRateLimitPerMinute).toBe(wafRateLimits.perIp);
  });

  it("takes the per-key limit from the stage's apiKeyRateLimitPerMinute", () => {
    const entry = stageEntry({ prod: { ...registry.prod, apiKeyRateLimitPerMinute: 600 } }, 'prod');
    expect(entry.environment.API_KEY_RATE_LIMIT_PER_MINUTE).toBe('600');
    expect(() => stageEntry({ prod: { ...registry.prod, apiKeyRateLimitPerMinute: 5 } }, 'prod')).toThrow(
      /apiKeyRateLimitPerMinute: must be a whole number/,
    );
    const stack = new Stack(new App(), 'WafOnly', { env: { account: '210987654321', region: 'eu-west-1' } });
    const api = new RestApi(stack, 'Api');
    api.root.addMethod('GET');
    new ApiWebAcl(stack, { name: 'prod', production: true, removalPolicy: 'retain' as never }, api, 600);
    const [, webAcl] = resourcesOf(Template.fromStack(stack), 'AWS::WAFv2::WebACL')[0] as [string, Json];
    const perKey = webAcl.Properties.Rules.find((rule: Json) => rule.Name === 'RatePerApiKeyId');
    expect(perKey.Statement.RateBasedStatement.Limit).toBe(600);
  });

  it("leaves the providers' callbacks out of the per-address limit", () => {
    const perIp = ruleNamed('RatePerIp').Statement.RateBasedStatement;
    expect(perIp.AggregateKeyType).toBe('IP');
    expect(perIp.ScopeDownStatement.NotStatement.Statement.ByteMatchStatement).toMatchObject({
      FieldToMatch: { UriPath: {} },
      PositionalConstraint: 'CONTAINS',
      SearchString: '/provider_callbacks/',
    });
    expect(ruleNamed('RatePerIp').Action.Block.CustomResponse.ResponseHeaders).toEqual([
      { Name: 'Retry-After', Value: String(rateLimitedRetryAfterSeconds) },
    ]);
  });
});

describe("the providers' callbacks on prod", () => {
  it('have a throttle of their own, apart from the stage’s', () => {
    const [[, apiStage]] = resourcesOf(prod.template, 'AWS::ApiGateway::Stage') as [[string, Json]];
    const settings: Json[] = apiStage.Properties.MethodSettings;
    const callbacks = endpointEntries.filter(([, route]) => route.path.startsWith('/provider_callbacks/'));
    expect(callbacks.length).toBe(5);
    for (const [name, route] of callbacks) {
      const setting = settings.find(
        (candidate) =>
          candidate.HttpMethod === route.method &&
          // API Gateway's escaping: the path's slashes become ~1, after a leading slash.
          candidate.ResourcePath === `/${route.path.replaceAll('/', '~1')}`,
      );
      expect(setting, name).toMatchObject({
        ThrottlingRateLimit: providerCallbackThrottling.rateLimit,
        ThrottlingBurstLimit: providerCallbackThrottling.burstLimit,
        LoggingLevel: 'ERROR',
        DataTraceEnabled: false,
      });
    }
    expect(settings.find((setting) => setting.HttpMethod === '*')).toMatchObject({
      ThrottlingRateLimit: stageThrottling.rateLimit,
    });
  });

  it("answers the stage's own throttle 429 with Retry-After too", () => {
    const [[, throttled]] = resourcesOf(prod.template, 'AWS::ApiGateway::GatewayResponse').filter(
      ([, response]) => response.Properties.ResponseType === 'THROTTLED',
    ) as [[string, Json]];
    expect(throttled.Properties.StatusCode).toBe('429');
    expect(throttled.Properties.ResponseParameters).toEqual({
      'gatewayresponse.header.Retry-After': "'1'",
    });
  });
});

describe('the alarms of prod', () => {
  const prefix = stackName('prod');

  it("watch the stream consumer's lag", () => {
    const alarm = alarmNamed(prod.template, `${prefix}-dispatchTableChanges-iterator-age`);
    expect(alarm).toMatchObject({
      MetricName: 'IteratorAge',
      Statistic: 'Maximum',
      Threshold: iteratorAgeAlarm.thresholdMs,
      EvaluationPeriods: iteratorAgeAlarm.periods,
    });
  });

  it('watch each sweep for failed runs in a row', () => {
    for (const [name, schedule] of scheduleEntries) {
      const alarm = alarmNamed(prod.template, `${prefix}-${name}-errors`);
      expect(metricNamesOf(alarm).sort(), name).toEqual(['Errors', 'Throttles']);
      const runs = schedule.expression === 'rate(1 minute)' ? 3 : 2;
      expect(alarm.EvaluationPeriods, name).toBe(runs);
      expect(alarm.DatapointsToAlarm, name).toBe(runs);
    }
  });

  it("watch the account's concurrency against the limit the stage counts on", () => {
    const alarm = alarmNamed(prod.template, `${prefix}-account-concurrency`);
    expect(alarm).toMatchObject({ MetricName: 'ConcurrentExecutions', Namespace: 'AWS/Lambda' });
    expect(alarm.Threshold).toBeLessThan(prodBudget.accountLimit);
  });

  it('watch the share of requests the WAF blocks', () => {
    const [[, acl]] = resourcesOf(prod.template, 'AWS::WAFv2::WebACL') as [[string, Json]];
    const alarm = alarmNamed(prod.template, `${prefix}-waf-blocked`);
    expect(metricNamesOf(alarm).sort()).toEqual(['AllowedRequests', 'BlockedRequests']);
    for (const metric of alarm.Metrics.filter((candidate: Json) => candidate.MetricStat)) {
      expect(metric.MetricStat.Metric.Dimensions).toContainEqual({
        Name: 'WebACL',
        Value: acl.Properties.Name,
      });
      expect(metric.MetricStat.Metric.Dimensions).toContainEqual({ Name: 'Rule', Value: 'ALL' });
    }
    expect(alarm.Threshold).toBe(wafBlockedAlarm.percent);
  });

  it("watch the payments' and the webhooks' failure rates from the service's own metrics", () => {
    const payments = alarmNamed(prod.template, `${prefix}-payment-failure-rate`);
    expect(new Set(metricNamesOf(payments))).toEqual(new Set(['PaymentsCompleted']));
    expect(metricNamesOf(payments)).toHaveLength(10);
    expect(payments.Threshold).toBe(paymentFailureRateAlarm.percent);
    const webhooks = alarmNamed(prod.template, `${prefix}-webhook-failure-rate`);
    expect(metricNamesOf(webhooks).sort()).toEqual(['WebhookAttemptFailures', 'WebhookAttempts']);
    expect(webhooks.Threshold).toBe(webhookFailureRateAlarm.percent);
    for (const alarm of [payments, webhooks]) {
      expect(alarm.Metrics.find((metric: Json) => metric.Expression).Expression).toMatch(/^IF\(/);
    }
    // An alarm matches a metric's dimensions exactly, and every metric is written with its stage.
    for (const alarm of [payments, webhooks]) {
      for (const metric of alarm.Metrics.filter((m: Json) => m.MetricStat)) {
        expect(metric.MetricStat.Metric.Dimensions).toContainEqual({ Name: 'stage', Value: 'prod' });
      }
    }
  });

  it('raise an alarm per operator when its starts fail or payers are turned away for it', () => {
    for (const provider of providerCodes) {
      const alarm = alarmNamed(prod.template, `${prefix}-operator-${provider}-down`);
      expect(metricNamesOf(alarm).sort()).toEqual(['OperatorUnavailable', 'ProviderFailures']);
      for (const metric of alarm.Metrics.filter((m: Json) => m.MetricStat)) {
        expect(metric.MetricStat.Metric.Dimensions).toEqual(
          expect.arrayContaining([
            { Name: 'stage', Value: 'prod' },
            { Name: 'provider', Value: provider },
          ]),
        );
        expect(metric.MetricStat.Period).toBe(operatorDownAlarm.period.toSeconds());
      }
      expect(alarm.Threshold).toBe(operatorDownAlarm.threshold);
    }
  });

  it('give every IoT rule an error action, whose failures raise an alarm', () => {
    const rules = resourcesOf(prod.template, 'AWS::IoT::TopicRule');
    expect(rules.length).toBeGreaterThan(0);
    const groups = new Set<string>();
    for (const [, rule] of rules) {
      const logs = rule.Properties.TopicRulePayload.ErrorAction.CloudwatchLogs;
      expect(logs.LogGroupName).toBeDefined();
      groups.add(JSON.stringify(logs.LogGroupName));
      const role = resourceOf(prod.template, 'AWS::IAM::Role', logs.RoleArn['Fn::GetAtt'][0]);
      expect(role.Properties.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({
        Service: 'iot.amazonaws.com',
      });
    }
    expect(groups.size).toBe(1);
    const alarm = alarmNamed(prod.template, `${prefix}-device-rule-errors`);
    expect(alarm.MetricName).toBe('DeviceRuleErrors');
    const [[, filter]] = resourcesOf(prod.template, 'AWS::Logs::MetricFilter').filter(
      ([, candidate]) => candidate.Properties.MetricTransformations[0].MetricName === 'DeviceRuleErrors',
    ) as [[string, Json]];
    expect(JSON.stringify(filter.Properties.LogGroupName)).toBe([...groups][0]);
  });

  it('page through one composite alarm, the rest shown on the dashboard', () => {
    const composites = resourcesOf(prod.template, 'AWS::CloudWatch::CompositeAlarm');
    const paging = composites.filter(([, composite]) => composite.Properties.AlarmActions?.length);
    expect(paging.map(([, composite]) => composite.Properties.AlarmName)).toEqual([pagingAlarmName('prod')]);
    const [[, dashboard]] = resourcesOf(prod.template, 'AWS::CloudWatch::Dashboard') as [[string, Json]];
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    expect(body).toContain('"type\\":\\"alarm\\"');
    expect(body).toContain('Function throttles');
    expect(body).toContain('Concurrent executions');
  });
});

describe('CloudFormation resources', () => {
  it.each([
    ['prod', prod],
    ['dev', dev],
  ])('every stack of %s stays under 500', (_stage, { stack }) => {
    const counts = [stack, ...nestedStacksOf(stack)].map(
      (each) => [each.node.id, resourceCountOf(each)] as const,
    );
    for (const [id, count] of counts) expect(count, id).toBeLessThan(cloudFormationResourceLimit);
    console.log(counts.map(([id, count]) => `${id}: ${count}`).join(', '));
  });
});
