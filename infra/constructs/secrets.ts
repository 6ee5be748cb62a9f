/**
 * The stage's secrets: on sandbox stages the key the sandbox provider signs its callbacks with
 * (and the service checks), the KMS key that encrypts the webhook signing secrets stored in the
 * table, the credentials of each live provider the stage routes to, and Smile ID's where it checks
 * identities. A function gets a secret
 * or the key only when its access names it (infra/service-function.ts).
 */
import { RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import { type CfnSecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Stage } from '#infra/constructs/stage.ts';
import { acknowledge } from '#infra/nag.ts';
import {
  pascalCase,
  providerSecretName,
  sandboxProviderSecretName,
  stackName,
  webhookSecretsKeyAlias,
} from '#infra/naming.ts';
import type { LiveAdapterName } from '#shared/providers/adapters.ts';

export class StageSecrets {
  /** Sandbox stages only: the key the sandbox provider signs callbacks with, and the service checks. */
  readonly sandboxProvider: Secret | undefined;
  /** Encrypts webhook signing secrets in the table. */
  readonly webhookSecretsKey: Key;
  /** The credentials of each live provider the stage routes to. */
  readonly liveProviders: ReadonlyMap<LiveAdapterName, Secret>;
  /** Smile ID's partner id and API key, where it checks identities (`identityVendor`). */
  readonly identity: Secret | undefined;

  constructor(
    stack: Stack,
    stage: Stage,
    liveAdapters: Iterable<LiveAdapterName>,
    identityVendor: string | undefined,
  ) {
    this.sandboxProvider = stage.production ? undefined : sandboxProviderSecret(stack, stage.name);

    // The key policy leaves use to IAM: only the roles the function catalogue grants it (the functions
    // that create subscriptions and send webhooks) and the account's administrators may use it.
    this.webhookSecretsKey = new Key(stack, 'WebhookSecretsKey', {
      alias: webhookSecretsKeyAlias(stage.name),
      description: `Encrypts the webhook signing secrets of ${stackName(stage.name)}`,
      enableKeyRotation: true,
      // Without it the secrets in a retained table could never be read again.
      removalPolicy: stage.removalPolicy,
    });

    const liveProviders = new Map<LiveAdapterName, Secret>();
    for (const adapter of liveAdapters) {
      liveProviders.set(
        adapter,
        operatorFilledSecret(
          stack,
          stage,
          `${pascalCase(adapter)}ProviderSecret`,
          adapter,
          `${adapter} API credentials of the ${stage.name} stage, as JSON: filled with npm run admin -- put-provider-secret (docs/operations/live-providers.md)`,
        ),
      );
    }
    this.liveProviders = liveProviders;
    this.identity =
      identityVendor === 'smileid'
        ? operatorFilledSecret(
            stack,
            stage,
            'SmileIdSecret',
            'smileid',
            `Smile ID partner id and API key of the ${stage.name} stage, as JSON: filled with npm run admin -- put-provider-secret --provider smileid (docs/operations/identity.md)`,
          )
        : undefined;
  }
}

/** Credentials a third party issues, which an operator puts in after the first deploy. */
function operatorFilledSecret(stack: Stack, stage: Stage, id: string, provider: string, description: string) {
  const secret = new Secret(stack, id, {
    secretName: providerSecretName(stage.name, provider),
    description,
    removalPolicy: stage.removalPolicy,
  });
  // Created empty, with no value at all: a generated placeholder would be CloudFormation's to
  // regenerate, and a later change to its settings would replace the provider's real keys on
  // the next deploy. The value is only ever the operator's (put-provider-secret); until then a
  // function reading it fails, saying so, rather than calling the provider with a wrong key.
  (secret.node.defaultChild as CfnSecret).addPropertyDeletionOverride('GenerateSecretString');
  acknowledge(
    secret,
    'AwsSolutions-SMG4',
    'Keys issued by the provider in its own portal: rotated there, then put here by an operator (docs/operations/secrets.md).',
  );
  return secret;
}

function sandboxProviderSecret(stack: Stack, stage: string): Secret {
  const secret = new Secret(stack, 'SandboxProviderSecret', {
    secretName: sandboxProviderSecretName(stage),
    description: `Signs the sandbox provider's callbacks to the service (${stage})`,
    // Alphanumeric, so it passes unchanged through environment variables and shell quoting.
    generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
    // Only sandbox stages have it, and a new one costs nothing but in-flight sandbox callbacks.
    removalPolicy: RemovalPolicy.DESTROY,
  });
  acknowledge(
    secret,
    'AwsSolutions-SMG4',
    'Sandbox-only signing key shared by our own functions alone: no third party holds a copy to rotate.',
  );
  return secret;
}
