import { App } from 'aws-cdk-lib';
import { buildPaymentsApp } from '#infra/payments-app.ts';

// `cdk synth|deploy -c stage=NAME`: one stack per stage.
buildPaymentsApp(new App());
