/**
 * The WAF web ACL in front of the API's stage: per-caller rate limits that keep any one caller
 * from exhausting the stage's throttle, size limits that refuse oversized requests before a
 * function runs (shared/http/request-limits.ts), and AWS's managed rule groups. Its refusals come in
 * the spec's error format, and what it blocked is logged, without the API key, for a caller who
 * says they were refused.
 */
import type { Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { errorTemplate, stageThrottling } from '#infra/constructs/api.ts';
import type { Stage } from '#infra/constructs/stage.ts';
import { stackName } from '#infra/naming.ts';
import { requestLimits } from '#shared/http/request-limits.ts';

/**
 * WAF rate limits over one-minute windows, derived from the stage's throttling so that no single
 * caller can exhaust it: an API key id, or an IP address, gets at most a fifth of the stage's
 * steady rate (20/s of 100/s). It takes five callers at their limit to reach the stage's own
 * throttle, where the per-IP limit was once so loose that two addresses did. The per-IP rule also
 * covers requests without a key id (public pages, scans of unknown routes), but not the
 * providers' callbacks: a provider calls from a few addresses for every payment of the stage, and
 * its callbacks have their own throttle (api.ts). The per-key limit is the stage's
 * `apiKeyRateLimitPerMinute` (its default is this fifth).
 */
const callersToExhaustStage = 5;
const perCallerPerMinute = (stageThrottling.rateLimit * 60) / callersToExhaustStage;
export const wafRateLimits = {
  perIp: perCallerPerMinute,
  windowSeconds: 60,
  callersToExhaustStage,
} as const;

/**
 * A caller over a rate limit is told to wait one window: WAF lifts the block once the requests of
 * the last window fall under the limit, which a caller that stopped meets within it.
 */
export const rateLimitedRetryAfterSeconds = wafRateLimits.windowSeconds;

/**
 * Rules of the common rule set counted rather than blocking. Its 8 KB body limit would refuse
 * bodies the service takes (it enforces 16 KiB itself, answered 413, by the BodyTooLarge rule
 * evaluated before the group); and a request without a User-Agent is no attack on an API whose
 * callers are servers, a provider's callback among them.
 */
export const commonRuleSetCountedRules = ['SizeRestrictions_BODY', 'NoUserAgent_HEADER'] as const;

/** What the providers' callbacks share in their path, whatever the stage name before it. */
export const providerCallbackPathPart = '/provider_callbacks/';

/**
 * AWS managed rule groups evaluated after the rate rules: common exploits (OWASP-style), known bad
 * inputs (Log4Shell, request smuggling...), and addresses Amazon's threat intelligence reports.
 */
export const managedRuleGroups = [
  'AWSManagedRulesCommonRuleSet',
  'AWSManagedRulesKnownBadInputsRuleSet',
  'AWSManagedRulesAmazonIpReputationList',
] as const;

/** The keys of the web ACL's custom response bodies. */
const rateLimitedBody = 'RateLimited';
const tooLargeBody = 'RequestTooLarge';
const targetTooLongBody = 'TargetTooLong';

const visibilityOf = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

function rateRule(
  name: string,
  priority: number,
  limit: number,
  key: Pick<CfnWebACL.RateBasedStatementProperty, 'aggregateKeyType' | 'customKeys' | 'scopeDownStatement'>,
): CfnWebACL.RuleProperty {
  return {
    name,
    priority,
    statement: {
      rateBasedStatement: { limit, evaluationWindowSec: wafRateLimits.windowSeconds, ...key },
    },
    // 429 with the spec's body and a Retry-After, not WAF's 403: clients back off and retry on 429.
    action: {
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: rateLimitedBody,
          responseHeaders: [{ name: 'Retry-After', value: String(rateLimitedRetryAfterSeconds) }],
        },
      },
    },
    visibilityConfig: visibilityOf(name),
  };
}

/** Requests other than the providers' callbacks. */
const notProviderCallback: CfnWebACL.StatementProperty = {
  notStatement: {
    statement: {
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'CONTAINS',
        searchString: providerCallbackPathPart,
        textTransformations: [{ priority: 0, type: 'LOWERCASE' }],
      },
    },
  },
};

// Bodies over the limit are refused whole: WAF inspects the first 16 KB of a body on API
// Gateway, and MATCH treats what lies beyond as over the limit rather than letting it through.
function sizeRule(
  name: string,
  priority: number,
  fieldToMatch: CfnWebACL.FieldToMatchProperty,
  limit: number,
  answer: { status: number; bodyKey: string },
): CfnWebACL.RuleProperty {
  return {
    name,
    priority,
    statement: {
      sizeConstraintStatement: {
        fieldToMatch,
        comparisonOperator: 'GT',
        size: limit,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    },
    action: {
      block: { customResponse: { responseCode: answer.status, customResponseBodyKey: answer.bodyKey } },
    },
    visibilityConfig: visibilityOf(name),
  };
}

export class ApiWebAcl {
  /** The web ACL's name, which its CloudWatch metrics are dimensioned by. */
  readonly webAclName: string;

  /** `apiKeyRateLimitPerMinute`: the stage's requests a minute per API key id. */
  constructor(stack: Stack, stage: Stage, api: RestApi, apiKeyRateLimitPerMinute: number) {
    this.webAclName = stackName(stage.name);
    const webAcl = new CfnWebACL(stack, 'WebAcl', {
      name: this.webAclName,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      customResponseBodies: {
        [rateLimitedBody]: {
          contentType: 'APPLICATION_JSON',
          content: errorTemplate('too_many_requests', '"Too many requests"'),
        },
        [tooLargeBody]: {
          contentType: 'APPLICATION_JSON',
          content: errorTemplate('request_too_large', '"The request body is too large"'),
        },
        [targetTooLongBody]: {
          contentType: 'APPLICATION_JSON',
          content: errorTemplate('bad_request', '"The request target is too long"'),
        },
      },
      rules: [
        rateRule('RatePerApiKeyId', 0, apiKeyRateLimitPerMinute, {
          aggregateKeyType: 'CUSTOM_KEYS',
          customKeys: [
            {
              header: {
                name: 'x-api-key-id',
                // Key ids are UUIDs that clients may send in either case.
                textTransformations: [{ priority: 0, type: 'LOWERCASE' }],
              },
            },
          ],
        }),
        rateRule('RatePerIp', 1, wafRateLimits.perIp, {
          aggregateKeyType: 'IP',
          scopeDownStatement: notProviderCallback,
        }),
        sizeRule('BodyTooLarge', 2, { body: { oversizeHandling: 'MATCH' } }, requestLimits.bodyBytes, {
          status: 413,
          bodyKey: tooLargeBody,
        }),
        // API Gateway caps the target at 8 KB itself; the service takes half of that.
        sizeRule('QueryTooLong', 3, { queryString: {} }, requestLimits.targetChars, {
          status: 414,
          bodyKey: targetTooLongBody,
        }),
        sizeRule('PathTooLong', 4, { uriPath: {} }, requestLimits.targetChars, {
          status: 414,
          bodyKey: targetTooLongBody,
        }),
        ...managedRuleGroups.map(
          (name, index): CfnWebACL.RuleProperty => ({
            name,
            priority: 10 + index,
            statement: {
              managedRuleGroupStatement: {
                vendorName: 'AWS',
                name,
                ...(name === 'AWSManagedRulesCommonRuleSet'
                  ? {
                      ruleActionOverrides: commonRuleSetCountedRules.map((rule) => ({
                        name: rule,
                        actionToUse: { count: {} },
                      })),
                    }
                  : {}),
              },
            },
            // The group's own actions (block) apply, but for the rules overridden above.
            overrideAction: { none: {} },
            visibilityConfig: visibilityOf(name),
          }),
        ),
      ],
      visibilityConfig: visibilityOf(stackName(stage.name)),
    });
    new CfnWebACLAssociation(stack, 'WebAclAssociation', {
      resourceArn: api.deploymentStage.stageArn,
      webAclArn: webAcl.attrArn,
    });
    // WAF requires the `aws-waf-logs-` prefix. What was blocked and why, for a caller who says
    // they were refused; the API key is never logged.
    const wafLogs = new LogGroup(stack, 'WafLogs', {
      logGroupName: `aws-waf-logs-${stackName(stage.name)}`,
      retention: stage.production ? RetentionDays.ONE_YEAR : RetentionDays.TWO_WEEKS,
      removalPolicy: stage.removalPolicy,
    });
    new CfnLoggingConfiguration(stack, 'WafLogging', {
      resourceArn: webAcl.attrArn,
      logDestinationConfigs: [wafLogs.logGroupArn],
      redactedFields: [{ singleHeader: { Name: 'x-api-key' } }],
    });
  }
}
