/**
 * The stage's REST API: regional, throttled per stage, with an access log of who called what, API
 * Gateway's own answers in the spec's error format, and one method per route invoking its function
 * (added by service-functions.ts). Each method, with the path parts only its stack's routes use,
 * sits in the nested stack of its function; the API, its deployment and stage, and the path parts
 * routes of several stacks share stay in the stage's stack. The web ACL in front of it is web-acl.ts.
 */
import { Size, Stack } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  EndpointType,
  type IResource,
  type IRestApi,
  LogGroupLogDestination,
  type Method,
  MethodLoggingLevel,
  Resource,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { Stage } from '#infra/constructs/stage.ts';
import { GroupedLambdaIntegration, reserveResources } from '#infra/function-groups.ts';
import { acknowledge } from '#infra/nag.ts';
import { stackName } from '#infra/naming.ts';
import { streamedIntegrationTimeout } from '#infra/service-function.ts';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';

/** `/a/b/c` → `['/a', '/a/b', '/a/b/c']`; `/` → `[]`. */
const prefixesOf = (path: string): string[] =>
  path
    .split('/')
    .filter(Boolean)
    .map((_, index, parts) => `/${parts.slice(0, index + 1).join('/')}`);

/** A route waiting for its method: made once every route is placed (`addMethods`). */
interface PlacedRoute {
  readonly route: Endpoint;
  /** A function, or a money path's `live` alias. */
  readonly fn: IFunction;
  /** The stack of the function, where the method goes. */
  readonly home: Stack;
}

/**
 * Stage-wide throttling, a token bucket per stage. Partner traffic is expected in the tens of
 * requests per second at peak; 100/s with bursts of 200 leaves it ample room while capping what a
 * runaway client can cost: a 200-request burst at ~100 ms each keeps ~20 executions busy, far
 * from the account's default 1,000 concurrent, and the stage stays well under the 10,000
 * requests/s that every API of the account and region shares. Above it, callers get 429 in the
 * spec's format and retry. Raise it from the 429 count in the access logs, not before.
 */
export const stageThrottling = { rateLimit: 100, burstLimit: 200 } as const;

/**
 * The providers' callbacks have a throttle of their own, set on their methods: partners at their
 * limit must not get a provider's callback refused, nor a burst of callbacks (a provider catching
 * up after an outage) the partners' calls. One callback per payment and per payout is far below
 * it; a provider retries what it was refused.
 */
export const providerCallbackThrottling = { rateLimit: 50, burstLimit: 100 } as const;

/** The methods of the providers' callbacks, as API Gateway's method settings name them. */
const providerCallbackMethods = endpointEntries
  .filter(([, route]) => route.path.startsWith('/provider_callbacks/'))
  .map(([, route]) => `${route.path}/${route.method}`);

/** The spec's error body. `message` is a VTL expression that yields a JSON string. */
export const errorTemplate = (id: string, message: string) =>
  `{"id":"${id}","message":${message},"extras":null}`;

/** API Gateway's own answers, in the spec's error format instead of `{"message": ...}`. */
export const gatewayResponses = [
  // Unsupported media type, access denied...: the status is kept, the message says which.
  { type: ResponseType.DEFAULT_4XX, id: 'bad_request', message: '$context.error.messageString' },
  { type: ResponseType.DEFAULT_5XX, id: 'internal_error', message: '"Internal server error"' },
  // A REST API answers an unknown route with 403 "Missing Authentication Token".
  {
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: '404',
    id: 'not_found',
    message: '"Route not found"',
  },
  { type: ResponseType.RESOURCE_NOT_FOUND, statusCode: '404', id: 'not_found', message: '"Route not found"' },
  {
    type: ResponseType.THROTTLED,
    statusCode: '429',
    id: 'too_many_requests',
    message: '"Too many requests"',
    // The stage's token bucket refills every second; the WAF's per-caller 429 says a minute.
    headers: { 'Retry-After': "'1'" },
  },
  {
    type: ResponseType.REQUEST_TOO_LARGE,
    statusCode: '413',
    id: 'request_too_large',
    message: '"Request body too large"',
  },
  { type: ResponseType.WAF_FILTERED, statusCode: '403', id: 'forbidden', message: '"Forbidden"' },
  // Clients retry on 5xx, which is right for a timeout; the id is the spec's for server errors.
  {
    type: ResponseType.INTEGRATION_TIMEOUT,
    statusCode: '504',
    id: 'internal_error',
    message: '"The request timed out"',
  },
] as const;

/**
 * Why a method has no API Gateway authorizer. Partner routes check API keys in the handler wrapper,
 * which must answer the spec's exact 401 and 403 bodies (an authorizer's denials come out as gateway
 * errors). Public routes have no key to check at all, each for its own reason.
 */
function authorizationReason(route: Endpoint): string {
  if (route.caller !== 'public') {
    return 'Integrators authenticate with API keys, checked by the handler wrapper (DESIGN §3), not with an authorizer or Cognito users.';
  }
  if (route.path.startsWith('/provider_callbacks/')) {
    return "Called by mobile-money providers, which hold no API key of ours: the handler accepts a callback only with the provider's valid signature.";
  }
  return 'A page a payer opens in a browser, who has no API key: it shows only the payment or link its unguessable id names, and acts only on that one.';
}

export class PaymentsApi {
  readonly restApi: RestApi;
  private readonly routes: PlacedRoute[] = [];
  /** The path parts counted, per stack, for the methods to come (`reserveResources`). */
  private readonly reservedPaths = new Map<Stack, Set<string>>();

  constructor(
    private readonly stack: Stack,
    private readonly stage: Stage,
  ) {
    const accessLogs = new LogGroup(stack, 'ApiAccessLogs', {
      // Who called what and when, for disputes with integrators: kept longer on production.
      retention: stage.production ? RetentionDays.ONE_YEAR : RetentionDays.TWO_WEEKS,
      removalPolicy: stage.removalPolicy,
    });

    this.restApi = new RestApi(stack, 'Api', {
      restApiName: stackName(stage.name),
      description: `Partner Payments API (${stage.name})`,
      // Regional, so WAF's IP rule sees callers' addresses rather than CloudFront edges'.
      endpointTypes: [EndpointType.REGIONAL],
      // Answers of 1 KB and more are compressed for callers that accept it: the reference page's
      // viewer (1.7 MB) travels as about 0.5 MB, and lists shrink several times.
      minCompressionSize: Size.kibibytes(1),
      // A base64 answer marked `isBase64Encoded` (the dashboard's QR code PNG) leaves as bytes. API
      // Gateway decides by the request's Accept, and a browser's download asks `text/html,…,*/*`:
      // only `*/*` matches it. Request bodies then reach functions base64 too; `rawBody` decodes them.
      binaryMediaTypes: ['*/*'],
      // Needed for execution logging; it is an account-wide setting that every stage re-asserts.
      cloudWatchRole: true,
      deployOptions: {
        stageName: stage.name,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            extendedRequestId: AccessLogField.contextExtendedRequestId(),
            requestTimeEpoch: AccessLogField.contextRequestTimeEpoch(),
            ip: AccessLogField.contextIdentitySourceIp(),
            userAgent: AccessLogField.contextIdentityUserAgent(),
            httpMethod: AccessLogField.contextHttpMethod(),
            resourcePath: AccessLogField.contextResourcePath(),
            path: AccessLogField.contextPath(),
            status: AccessLogField.contextStatus(),
            responseLength: AccessLogField.contextResponseLength(),
            responseLatency: AccessLogField.contextResponseLatency(),
            integrationLatency: AccessLogField.contextIntegrationLatency(),
            integrationStatus: AccessLogField.contextIntegrationStatus(),
            errorMessage: AccessLogField.contextErrorMessage(),
            errorType: AccessLogField.contextErrorResponseType(),
            wafStatus: AccessLogField.contextWafStatus(),
            xrayTraceId: AccessLogField.contextXrayTraceId(),
          }),
        ),
        tracingEnabled: true,
        // ERROR only: INFO logs every request's full execution trace, and the access log above and
        // the functions' own logs already cover normal traffic.
        loggingLevel: MethodLoggingLevel.ERROR,
        // Request and response bodies carry phone numbers and keys: never logged by the gateway.
        dataTraceEnabled: false,
        metricsEnabled: true,
        throttlingRateLimit: stageThrottling.rateLimit,
        throttlingBurstLimit: stageThrottling.burstLimit,
        methodOptions: Object.fromEntries(
          providerCallbackMethods.map((method) => [
            method,
            {
              throttlingRateLimit: providerCallbackThrottling.rateLimit,
              throttlingBurstLimit: providerCallbackThrottling.burstLimit,
              // A method's settings replace the stage's: the same logging, never bodies.
              loggingLevel: MethodLoggingLevel.ERROR,
              dataTraceEnabled: false,
              metricsEnabled: true,
            },
          ]),
        ),
      },
    });
    for (const response of gatewayResponses) {
      this.restApi.addGatewayResponse(response.type.responseType, {
        type: response.type,
        ...('statusCode' in response ? { statusCode: response.statusCode } : {}),
        ...('headers' in response ? { responseHeaders: response.headers } : {}),
        templates: { 'application/json': errorTemplate(response.id, response.message) },
      });
    }
    acknowledge(
      this.restApi,
      'AwsSolutions-APIG2',
      "Handlers validate with zod to answer the spec's 422 validation_error body.",
    );
    const cloudWatchRole = this.restApi.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole) {
      acknowledge(
        cloudWatchRole,
        'AwsSolutions-IAM4',
        "API Gateway's account-wide logging role needs to create log groups it names itself.",
        'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs',
      );
    }

    // The stack's `ApiUrl` output replaces RestApi's own, whose name carries a hash that scripts
    // would have to guess.
    this.restApi.node.tryRemoveChild('Endpoint');
  }

  /**
   * The route's method, invoking `fn` (a function, or a money path's `live` alias): made in the
   * function's stack by `addMethods`, once every route is placed, since where a path part goes
   * depends on which stacks use it. Its method, the permission to invoke the function (made with the
   * method) and its path parts are reserved in that stack now, so that the group's next function
   * finds the stack as full as it will be.
   */
  addRoute(route: Endpoint, fn: IFunction): void {
    const home = Stack.of(fn);
    this.routes.push({ route, fn, home });
    if (home === this.stack) return;
    const reserved = this.reservedPaths.get(home) ?? new Set<string>();
    this.reservedPaths.set(home, reserved);
    const newParts = prefixesOf(route.path).filter((path) => !reserved.has(path));
    for (const path of newParts) reserved.add(path);
    reserveResources(home, 2 + newParts.length);
  }

  /**
   * The methods of the routes added, each in its function's stack with the path parts only that
   * stack's routes use; a path part routes of several stacks use is made in the stage's stack, and
   * imported by id where a nested stack adds to it. A nested stack reaches the API through
   * `RestApi.fromRestApiAttributes`, whose methods the API's deployment does not see: the
   * deployment is made to depend on each nested stack holding methods, and its logical id to hash
   * each method's description, so that a changed method deploys again (CDK's "nested stacks with
   * API Gateway"). Construct paths mirror the API's (`Api/Default/<part>/...`) in every stack, so
   * a path part or method keeps the logical id it had in the stage's stack.
   */
  addMethods(): void {
    const stacksUsing = new Map<string, Set<Stack>>();
    for (const { route, home } of this.routes) {
      for (const path of prefixesOf(route.path)) {
        stacksUsing.set(path, (stacksUsing.get(path) ?? new Set()).add(home));
      }
    }
    const shared = (path: string) => (stacksUsing.get(path)?.size ?? 0) > 1;
    const importedApis = new Map<Stack, { api: IRestApi; parts: Map<string, IResource> }>();
    const deployment = this.restApi.latestDeployment;
    for (const { route, fn, home } of this.routes) {
      let parent: IResource;
      if (home === this.stack) {
        parent = this.restApi.root.resourceForPath(route.path);
      } else {
        let imported = importedApis.get(home);
        if (!imported) {
          imported = {
            api: RestApi.fromRestApiAttributes(home, 'Api', {
              restApiId: this.restApi.restApiId,
              rootResourceId: this.restApi.restApiRootResourceId,
              restApiName: this.restApi.restApiName,
            }),
            parts: new Map(),
          };
          importedApis.set(home, imported);
          const nestedStackResource = home.nestedStackResource;
          if (deployment && nestedStackResource) deployment.node.addDependency(nestedStackResource);
        }
        const { api, parts } = imported;
        parent = api.root;
        for (const path of prefixesOf(route.path)) {
          let part = parts.get(path);
          if (!part) {
            const pathPart = path.slice(path.lastIndexOf('/') + 1);
            part = shared(path)
              ? Resource.fromResourceAttributes(parent as unknown as Construct, pathPart, {
                  restApi: api,
                  resourceId: this.restApi.root.resourceForPath(path).resourceId,
                  path,
                })
              : parent.addResource(pathPart);
            parts.set(path, part);
          }
          parent = part;
        }
      }
      const streamedFor = 'page' in route ? streamedIntegrationTimeout(route) : undefined;
      const method = parent.addMethod(
        route.method,
        // The console's test-invoke is not used; each function may be invoked by its method only.
        new GroupedLambdaIntegration(fn, this.stage.name, streamedFor),
      );
      if (home !== this.stack) {
        // The API's inventory of methods (it refuses to synthesize without one)...
        this.restApi.methods.push(method as Method);
        // ...and what makes the deployment new when a method changes; plain values only, since a
        // token of a nested stack read here would become an output of that stack.
        deployment?.addToLogicalId({
          method: {
            httpMethod: route.method,
            path: route.path,
            invokes: fn.node.path,
            streamedSeconds: streamedFor?.toSeconds(),
          },
        });
      }
      const reason = authorizationReason(route);
      acknowledge(method, 'AwsSolutions-APIG4', reason);
      acknowledge(method, 'AwsSolutions-COG4', reason);
    }
  }
}
