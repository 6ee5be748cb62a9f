/**
 * The WAF web ACL in front of the REST API (infra/constructs/web-acl.ts): per-caller rate limits
 * under the stage's throttle, size limits in the spec's error format, the managed rule groups and
 * the WAF's logs. Production's overrides are in running-in-production.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { stageThrottling } from '#infra/constructs/api.ts';
import { managedRuleGroups } from '#infra/constructs/web-acl.ts';
import { stackName } from '#infra/naming.ts';
import { requestLimits } from '#shared/http/request-limits.ts';
import { synthesizedStage } from '#test/support/stage-synthesized.ts';
import { type Json, resourceOf, resourcesOf } from '#test/support/stage-template-queries.ts';

const dev = await synthesizedStage('dev');

describe('the REST API', () => {
  it('is behind a WAF web ACL that rate-limits per API key id and per IP', () => {
    const [aclId, acl] = resourcesOf(dev.template, 'AWS::WAFv2::WebACL')[0] as [string, Json];
    const [stageId] = resourcesOf(dev.template, 'AWS::ApiGateway::Stage')[0] as [string, Json];
    const [, association] = resourcesOf(dev.template, 'AWS::WAFv2::WebACLAssociation')[0] as [string, Json];
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(JSON.stringify(association.Properties.ResourceArn)).toContain(`{"Ref":"${stageId}"}`);

    const rateRules = acl.Properties.Rules.filter((rule: Json) => rule.Statement.RateBasedStatement);
    const statements = rateRules.map((rule: Json) => rule.Statement.RateBasedStatement);
    expect(acl.Properties.Scope).toBe('REGIONAL');
    expect(statements).toContainEqual(
      expect.objectContaining({
        AggregateKeyType: 'CUSTOM_KEYS',
        CustomKeys: [{ Header: expect.objectContaining({ Name: 'x-api-key-id' }) }],
      }),
    );
    expect(statements).toContainEqual(expect.objectContaining({ AggregateKeyType: 'IP' }));
    for (const rule of rateRules) {
      expect(rule.Action.Block.CustomResponse.ResponseCode).toBe(429);
    }
  });

  it("rate-limits each key id and each IP to a share of the stage's throttle, so a few callers cannot exhaust it", () => {
    const [, acl] = resourcesOf(dev.template, 'AWS::WAFv2::WebACL')[0] as [string, Json];
    const stagePerMinute = stageThrottling.rateLimit * 60;
    for (const rule of acl.Properties.Rules.filter((rule: Json) => rule.Statement.RateBasedStatement)) {
      const { Limit, EvaluationWindowSec } = rule.Statement.RateBasedStatement;
      expect(EvaluationWindowSec).toBe(60);
      // Four callers at their limit still leave the stage's throttle unreached.
      expect(4 * Limit, rule.Name).toBeLessThan(stagePerMinute);
    }
  });

  it('applies the common, known-bad-inputs and IP-reputation managed rule groups, and logs to WAF logs without keys', () => {
    const [aclId, acl] = resourcesOf(dev.template, 'AWS::WAFv2::WebACL')[0] as [string, Json];
    const groups = acl.Properties.Rules.filter((rule: Json) => rule.Statement.ManagedRuleGroupStatement).map(
      (rule: Json) => [rule.Statement.ManagedRuleGroupStatement, rule.OverrideAction],
    );
    expect(groups).toEqual(
      [...managedRuleGroups].map((name) => [
        expect.objectContaining({ VendorName: 'AWS', Name: name }),
        { None: {} },
      ]),
    );
    const [, logging] = resourcesOf(dev.template, 'AWS::WAFv2::LoggingConfiguration')[0] as [string, Json];
    expect(logging.Properties.ResourceArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(logging.Properties.RedactedFields).toEqual([{ SingleHeader: { Name: 'x-api-key' } }]);
    const groupId = logging.Properties.LogDestinationConfigs[0]['Fn::GetAtt'][0];
    expect(resourceOf(dev.template, 'AWS::Logs::LogGroup', groupId).Properties.LogGroupName).toBe(
      `aws-waf-logs-${stackName('dev')}`,
    );
  });

  it('refuses at the WAF, in the error format, what the local host refuses: bodies and targets over the limits', () => {
    const [, acl] = resourcesOf(dev.template, 'AWS::WAFv2::WebACL')[0] as [string, Json];
    const sizeRules = acl.Properties.Rules.filter((rule: Json) => rule.Statement.SizeConstraintStatement);
    const limitOf = (field: string) =>
      sizeRules.find((rule: Json) => rule.Statement.SizeConstraintStatement.FieldToMatch[field]);
    const body = limitOf('Body');
    expect(body.Statement.SizeConstraintStatement).toMatchObject({
      ComparisonOperator: 'GT',
      Size: requestLimits.bodyBytes,
      // A body larger than WAF inspects counts as over the limit, never as allowed.
      FieldToMatch: { Body: { OversizeHandling: 'MATCH' } },
    });
    expect(body.Action.Block.CustomResponse.ResponseCode).toBe(413);
    const bodyKey = body.Action.Block.CustomResponse.CustomResponseBodyKey;
    expect(JSON.parse(acl.Properties.CustomResponseBodies[bodyKey].Content)).toEqual({
      id: 'request_too_large',
      message: expect.any(String),
      extras: null,
    });
    for (const field of ['QueryString', 'UriPath']) {
      const rule = limitOf(field);
      expect(rule.Statement.SizeConstraintStatement.Size).toBe(requestLimits.targetChars);
      expect(rule.Action.Block.CustomResponse.ResponseCode).toBe(414);
    }
    expect(requestLimits.bodyBytes).toBeLessThanOrEqual(16 * 1024);
  });
});
