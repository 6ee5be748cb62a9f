import path from 'node:path';
import { type CfnElement, Duration, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { nodejsFunctionBundling, nodeOptions } from '#infra/bundling.ts';
import { serviceName } from '#infra/naming.ts';
import { projectRoot } from '#infra/paths.ts';
import type { AwsAccess, Route } from '#shared/routes.ts';

/** The AWS resources a route's `access` list can name. */
export interface RouteResources {
  readonly table: ITable;
}

export interface ApiFunctionProps {
  readonly route: Route;
  /** Physical function name; also names its log group. */
  readonly functionName: string;
  readonly resources: RouteResources;
  readonly logRetention: RetentionDays;
  readonly logRemovalPolicy: RemovalPolicy;
}

/** Lambda's own limit on function names. */
const maxFunctionNameLength = 64;

/**
 * The function behind one route, with every default in one place. Its role starts empty and gets
 * exactly the route's `access`, its own log group, and X-Ray.
 */
export class ApiFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    if (props.functionName.length > maxFunctionNameLength) {
      throw new Error(
        `Function name ${props.functionName} is longer than ${maxFunctionNameLength} characters: shorten the stage or route name`,
      );
    }
    // Both are handed to the function at creation, so they are built beside it rather than inside.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      logGroupName: `/aws/lambda/${props.functionName}`,
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    // A role of our own instead of AWSLambdaBasicExecutionRole, whose log permissions cover every
    // log group of the account: this one may write to its own group only.
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    });

    super(scope, id, {
      functionName: props.functionName,
      entry: path.join(projectRoot, props.route.handler),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
      // DESIGN pins Node 22 so the bundles run on the same major as the local host and the tests.
      runtime: Runtime.NODEJS_22_X,
      // Graviton: about 20% cheaper per GB-second than x86 for the same work; nothing native is bundled.
      architecture: Architecture.ARM_64,
      // Lambda allots CPU in proportion to memory (one vCPU at 1,769 MB), and a cold start (parsing
      // the bundle, the first TLS handshake) is CPU-bound: 512 MB gives it twice the CPU of 256 MB
      // although the functions use far less memory. Warm requests mostly wait on DynamoDB, so more
      // memory would cost more without answering much faster.
      memorySize: 512,
      // Under API Gateway's 29 s integration limit, so a stuck call ends as a logged function
      // timeout (with the request id) instead of the gateway giving up while the function runs on.
      // Normal requests take tens of milliseconds; 10 s leaves room for the SDK's retries.
      timeout: Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      role,
      logGroup,
      environment: {
        NODE_OPTIONS: nodeOptions,
        POWERTOOLS_SERVICE_NAME: serviceName,
      },
      bundling: nodejsFunctionBundling(),
    });

    logGroup.grantWrite(role);
    for (const access of new Set(props.route.access)) grantAccess(this, access, props.resources);

    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions.',
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'DESIGN pins nodejs22.x to match the Node 22 that runs the local host and the tests.',
    });
  }
}

/**
 * Grants one kind of access and gives the function what it needs to use it (the table's name), so
 * a permission and its configuration cannot be added one without the other. The switch must
 * handle every `AwsAccess`: adding a kind to the route table fails type-checking here until it
 * gets its grant.
 */
export function grantAccess(fn: ApiFunction, access: AwsAccess, resources: RouteResources): void {
  switch (access) {
    case 'table:read':
      resources.table.grantReadData(fn);
      bindTable(fn, resources.table);
      return;
    case 'table:write':
      resources.table.grantReadWriteData(fn);
      bindTable(fn, resources.table);
      return;
    default: {
      const unhandled: never = access;
      throw new Error(`No grant is defined for access ${String(unhandled)}`);
    }
  }
}

function bindTable(fn: ApiFunction, table: ITable): void {
  fn.addEnvironment('TABLE_NAME', table.tableName);
  const tableLogicalId = Stack.of(table).getLogicalId(table.node.defaultChild as CfnElement);
  if (fn.role) {
    Validations.of(fn.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${tableLogicalId}.Arn>/index/*]`,
      reason: "Queries go through the table's GSIs; every index of the table is the service's own.",
    });
  }
}
