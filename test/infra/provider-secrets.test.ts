import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT } from 'aws-cdk-lib/cx-api';
import { describe, expect, it } from 'vitest';
import { providerSecretName, stackName } from '#infra/naming.ts';
import { buildPaymentsApp } from '#infra/payments-app.ts';
import { readRegistryFile, stageEntry } from '#infra/stage-registry.ts';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import { workerEntries } from '#shared/catalogue/queue-workers.ts';
import { scheduleEntries } from '#shared/catalogue/schedules.ts';
import { adapterSecretVariable } from '#shared/providers/adapters.ts';
import { synthesizedStage } from '#test/support/stage-synthesized.ts';
import { stageTemplateOf } from '#test/support/stage-template.ts';

const registry = readRegistryFile() as Record<string, Record<string, unknown>>;

// Dev and prod as the registry declares them are the run's own synthesized stages; a stage with
// settings added is synthesized here, once per settings (a whole synth is seconds of CPU).
const asDeclared: Record<string, Template> = {
  dev: (await synthesizedStage('dev')).template,
  prod: (await synthesizedStage('prod')).template,
};
const synthesized = new Map<string, Template>();

/** The stage as the registry declares it, with `settings` added to its entry. */
function build(stage: string, settings: Record<string, unknown> = {}): Template {
  const declared = asDeclared[stage];
  if (declared && Object.keys(settings).length === 0) return declared;
  const key = JSON.stringify([stage, settings]);
  const known = synthesized.get(key);
  if (known) return known;
  const app = new App({
    context: {
      'aws:cdk:bundling-stacks': [],
      stages: { ...registry, [stage]: { ...registry[stage], ...settings } },
      stage,
      [FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT]: false,
    },
  });
  const template = stageTemplateOf(buildPaymentsApp(app));
  synthesized.set(key, template);
  return template;
}

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped.
type Json = any;
const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const functionEntries = [...endpointEntries, ...workerEntries, ...scheduleEntries];

function providerSecrets(template: Template): Record<string, string> {
  return Object.fromEntries(
    Object.entries(template.findResources('AWS::SecretsManager::Secret'))
      .filter(([, secret]) => /-(wave|mtn|pawapay)-provider$/.test(secret.Properties.Name))
      .map(([id, secret]) => [secret.Properties.Name, id]),
  );
}

/** The secrets (by logical id) the function may read, and the secret ARN variables it is given. */
function secretAccessOf(template: Template, stage: string, name: string) {
  const [fn] = Object.values(template.findResources('AWS::Lambda::Function')).filter(
    (candidate: Json) => candidate.Properties.FunctionName === `${stackName(stage)}-${name}`,
  ) as Json[];
  if (!fn) return undefined;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  const readable = Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy: Json) => policy.Properties.Roles.some((role: Json) => role.Ref === roleId))
    .flatMap((policy: Json) => policy.Properties.PolicyDocument.Statement)
    .filter((statement: Json) => asArray<string>(statement.Action).includes('secretsmanager:GetSecretValue'))
    .map((statement: Json) => statement.Resource?.Ref as string);
  const variables = fn.Properties.Environment.Variables as Record<string, Json>;
  return { readable: new Set(readable), variables };
}

/**
 * Every function of the template: the secrets it may read (by logical id), the ARNs its variables
 * hand it, its layers and its variables.
 */
function functionsWithSecrets(template: Template) {
  const policies = Object.values(template.findResources('AWS::IAM::Policy')) as Json[];
  return Object.values(template.findResources('AWS::Lambda::Function')).map((fn: Json) => {
    const roleId = fn.Properties.Role['Fn::GetAtt'][0];
    const readable = policies
      .filter((policy) => policy.Properties.Roles.some((role: Json) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .filter((statement: Json) =>
        asArray<string>(statement.Action).includes('secretsmanager:GetSecretValue'),
      )
      .map((statement: Json) => statement.Resource?.Ref as string);
    const variables = (fn.Properties.Environment?.Variables ?? {}) as Record<string, Json>;
    const arnsHanded = Object.entries(variables)
      .filter(([variable]) => variable.endsWith('_SECRET_ARN'))
      .map(([, value]) => value?.Ref as string);
    return {
      name: fn.Properties.FunctionName as string,
      readable: [...new Set(readable)].sort(),
      arnsHanded: arnsHanded.sort(),
      layers: (fn.Properties.Layers ?? []) as Json[],
      variables,
    };
  });
}

const extensionLayer =
  /^arn:aws:lambda:eu-west-1:\d{12}:layer:AWS-Parameters-and-Secrets-Lambda-Extension-Arm64:\d+$/;

describe('the secrets extension', () => {
  it.each([
    ['prod', {}],
    ['dev', {}],
    ['staging', { providerRoutes: '{"mtn":"mtn"}', mtnTargetEnvironment: 'sandbox' }],
  ])(
    'on %s, is in exactly the functions granted a secret, each handed the ARNs it may read',
    (stage, settings) => {
      const functions = functionsWithSecrets(build(stage, settings));
      const readers = functions.filter((fn) => fn.readable.length > 0);
      expect(readers.length).toBeGreaterThan(3);
      expect(functions.length - readers.length).toBeGreaterThan(10);
      for (const fn of functions) {
        expect(fn.arnsHanded, fn.name).toEqual(fn.readable);
        if (fn.readable.length === 0) {
          expect(fn.layers, fn.name).toEqual([]);
          expect(
            Object.keys(fn.variables).filter((name) => /PARAMETERS_SECRETS|SECRETS_MANAGER/.test(name)),
          ).toEqual([]);
          continue;
        }
        expect(fn.layers.length, fn.name).toBe(1);
        expect(fn.layers[0], fn.name).toMatch(extensionLayer);
        expect(fn.variables, fn.name).toMatchObject({
          PARAMETERS_SECRETS_EXTENSION_CACHE_ENABLED: 'true',
          PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: '2773',
          PARAMETERS_SECRETS_EXTENSION_LOG_LEVEL: 'warn',
          SECRETS_MANAGER_TTL: '60',
        });
      }
    },
  );
});

describe('live provider credentials per stage', () => {
  const prod = build('prod');

  it('production routes Wave, MTN MoMo and pawaPay to their adapters, each with a secret of its own and no value in the template', () => {
    const secrets = providerSecrets(prod);
    expect(Object.keys(secrets).sort()).toEqual([
      providerSecretName('prod', 'mtn'),
      providerSecretName('prod', 'pawapay'),
      providerSecretName('prod', 'wave'),
    ]);
    for (const [, secret] of Object.entries(prod.findResources('AWS::SecretsManager::Secret'))) {
      expect(secret.Properties).not.toHaveProperty('SecretString');
      if (/-(wave|mtn|pawapay)-provider$/.test(secret.Properties.Name))
        expect(secret.DeletionPolicy).toBe('Retain');
    }
  });

  it('grants each function only the provider secrets it reads, with their ARNs and the routes in its environment', () => {
    const secrets = providerSecrets(prod);
    const wave = secrets[providerSecretName('prod', 'wave')] as string;
    const mtn = secrets[providerSecretName('prod', 'mtn')] as string;
    const pawapay = secrets[providerSecretName('prod', 'pawapay')] as string;
    expect(pawapay).toBeDefined();
    let readers = 0;
    let payoutCallbackReaders = 0;
    let others = 0;
    for (const [name, entry] of functionEntries) {
      const access = secretAccessOf(prod, 'prod', name);
      if (!access) continue;
      if (entry.access.includes('secret:providers')) {
        readers++;
        expect(
          [...access.readable].filter((id) => id === wave || id === mtn || id === pawapay).sort(),
          name,
        ).toEqual([mtn, pawapay, wave].sort());
        expect(access.variables[`${adapterSecretVariable.wave}_ARN`], name).toEqual({ Ref: wave });
        expect(access.variables[`${adapterSecretVariable.mtn}_ARN`], name).toEqual({ Ref: mtn });
        expect(access.variables[`${adapterSecretVariable.pawapay}_ARN`], name).toEqual({ Ref: pawapay });
      } else if (entry.access.includes('secret:providers:payoutCallbacks')) {
        // Only MTN MoMo calls back about payouts: Wave's key is not the payout callback's.
        payoutCallbackReaders++;
        expect(
          [...access.readable].filter((id) => id === wave || id === mtn),
          name,
        ).toEqual([mtn]);
        expect(access.variables[`${adapterSecretVariable.mtn}_ARN`], name).toEqual({ Ref: mtn });
        expect(access.variables, name).not.toHaveProperty(`${adapterSecretVariable.wave}_ARN`);
      } else {
        others++;
        expect(
          access.readable.has(wave) || access.readable.has(mtn) || access.readable.has(pawapay),
          name,
        ).toBe(false);
        expect(access.variables, name).not.toHaveProperty(`${adapterSecretVariable.wave}_ARN`);
      }
      // Production's routes: Wave and MTN Côte d'Ivoire direct, the rest of the zone through pawaPay.
      expect(JSON.parse(access.variables.PROVIDER_ROUTES), name).toEqual({
        wave: 'wave',
        mtn: { CI: 'mtn', '*': 'pawapay' },
        orange: 'pawapay',
        moov: 'pawapay',
      });
    }
    expect(readers).toBeGreaterThan(3);
    expect(payoutCallbackReaders).toBe(2);
    expect(others).toBeGreaterThan(3);
  });

  it('a sandbox stage routes to the sandbox and holds no provider secret, unless told to use an adapter', () => {
    expect(providerSecrets(build('dev'))).toEqual({});
    const staging = build('staging', { providerRoutes: '{"mtn":"mtn"}', mtnTargetEnvironment: 'sandbox' });
    expect(Object.keys(providerSecrets(staging))).toEqual([providerSecretName('staging', 'mtn')]);
    const access = secretAccessOf(staging, 'staging', 'createTransfer');
    expect(access?.variables.MTN_TARGET_ENVIRONMENT).toBe('sandbox');
    expect(access?.variables).not.toHaveProperty(`${adapterSecretVariable.wave}_ARN`);
  });

  it('refuses routes that name no adapter, and production routed to the sandbox', () => {
    expect(() => build('dev', { providerRoutes: '{"wave":"paypal"}' })).toThrow(
      /adapters are wave, mtn, pawapay, sandbox/,
    );
    expect(() => build('dev', { providerRoutes: '{"mtn":{"GH":"pawapay"}}' })).toThrow(
      /mtn.GH: a country of the zone/,
    );
    expect(() => build('dev', { providerRoutes: '{"mtn":{"BJ":"paypal"}}' })).toThrow(/mtn.BJ → paypal/);
    expect(() => build('prod', { providerRoutes: '{"mtn":{"CI":"mtn","*":"sandbox"}}' })).toThrow(
      /production cannot route to the sandbox/,
    );
    expect(() => build('dev', { providerRoutes: '{"visa":"wave"}' })).toThrow(/visa is not a payment method/);
    expect(() => build('prod', { providerRoutes: '{"orange":"sandbox"}' })).toThrow(
      /production cannot route to the sandbox/,
    );
  });

  it("refuses routes the payer pages' operator table disagrees with, and builds production's own", () => {
    // Orange Money is offered in Senegal, Côte d'Ivoire, Mali and Burkina Faso, never in Benin.
    expect(() => build('dev', { providerRoutes: '{"orange":{"BJ":"pawapay"}}' })).toThrow(
      /orange.BJ: the payer pages do not offer orange in BJ/,
    );
    // pawaPay carries no Wave, and no Djamo anywhere: a payer would choose it and be refused.
    expect(() => build('prod', { providerRoutes: '{"wave":"pawapay"}' })).toThrow(
      /wave in SN → pawapay: that adapter does not carry it there/,
    );
    expect(() => build('dev', { providerRoutes: '{"djamo":"pawapay"}' })).toThrow(/djamo in CI → pawapay/);
    // Wave's own API takes only Wave.
    expect(() => build('dev', { providerRoutes: '{"orange":{"SN":"wave","*":"pawapay"}}' })).toThrow(
      /orange in SN → wave/,
    );
    expect(() => build('prod')).not.toThrow();
  });
});

describe("identity checks by Smile ID (the stage's identityVendor)", () => {
  const prod = build('prod');
  /** The routes of the owner's check, and the functions of them that call Smile ID. */
  const verificationRoutes = [
    'startDashboardVerification',
    'dashboardVerificationPage',
    'submitDashboardVerificationPage',
    'startDashboardDocumentCheck',
    'receiveSmileIdCallback',
  ];
  const smileIdCallers = [
    'submitDashboardVerificationPage',
    'startDashboardDocumentCheck',
    'receiveSmileIdCallback',
  ];
  const smileIdSecrets = (template: Template) =>
    Object.entries(template.findResources('AWS::SecretsManager::Secret')).filter(([, secret]) =>
      /-smileid-provider$/.test(secret.Properties.Name),
    ) as [string, Json][];

  it("production has the verification pages and Smile ID's callback, with the registry's settings", () => {
    for (const name of verificationRoutes) {
      const access = secretAccessOf(prod, 'prod', name);
      expect(access, name).toBeDefined();
      expect(access?.variables, name).toMatchObject({
        IDENTITY_VENDOR: 'smileid',
        SMILE_ID_BASE_URL: 'https://api.smileidentity.com/v1',
        SMILE_ID_ID_TYPES: '{"CI":"NATIONAL_ID_NO_PHOTO"}',
      });
      // The partner id is the secret's, not a value of the template.
      expect(access?.variables, name).not.toHaveProperty('SMILE_ID_PARTNER_ID');
    }
    const paths = Object.values(prod.findResources('AWS::ApiGateway::Resource')).map(
      (resource: Json) => resource.Properties.PathPart,
    );
    expect(paths).toEqual(expect.arrayContaining(['verification', 'smileid']));
  });

  it("holds Smile ID's partner id and key in one secret with no value, read only by the functions that call Smile ID", () => {
    const secrets = smileIdSecrets(prod);
    expect(secrets.map(([, secret]) => secret.Properties.Name)).toEqual([
      providerSecretName('prod', 'smileid'),
    ]);
    const [id, secret] = secrets[0] as [string, Json];
    expect(secret.Properties).not.toHaveProperty('SecretString');
    expect(secret.Properties).not.toHaveProperty('GenerateSecretString');
    expect(secret.DeletionPolicy).toBe('Retain');
    const readers = functionsWithSecrets(prod)
      .filter((fn) => fn.readable.includes(id))
      .map((fn) => fn.name)
      .sort();
    expect(readers).toEqual(smileIdCallers.map((name) => `${stackName('prod')}-${name}`).sort());
    for (const name of smileIdCallers) {
      expect(secretAccessOf(prod, 'prod', name)?.variables.SMILE_ID_SECRET_ARN, name).toEqual({ Ref: id });
    }
    for (const fn of functionsWithSecrets(prod).filter((candidate) => !readers.includes(candidate.name))) {
      expect(fn.variables, fn.name).not.toHaveProperty('SMILE_ID_SECRET_ARN');
    }
    // The operator fills it, as the providers' (npm run admin -- put-provider-secret --provider smileid).
    const operatorPuts = Object.values(prod.findResources('AWS::IAM::Policy'))
      .flatMap((policy: Json) => policy.Properties.PolicyDocument.Statement)
      .filter((statement: Json) =>
        asArray<string>(statement.Action).includes('secretsmanager:PutSecretValue'),
      )
      .flatMap((statement: Json) => asArray<Json>(statement.Resource));
    expect(operatorPuts).toContainEqual({ Ref: id });
  });

  it("a sandbox stage keeps the sandbox's check and no Smile ID secret, unless its entry names Smile ID", () => {
    const dev = build('dev');
    expect(smileIdSecrets(dev)).toEqual([]);
    const page = secretAccessOf(dev, 'dev', 'submitDashboardVerificationPage');
    expect(page?.variables).not.toHaveProperty('IDENTITY_VENDOR');
    expect(page?.variables).not.toHaveProperty('SMILE_ID_SECRET_ARN');
    const staging = build('staging', {
      identityVendor: 'smileid',
      smileIdBaseUrl: 'https://testapi.smileidentity.com/v1/',
    });
    const [[id]] = smileIdSecrets(staging) as [[string, Json]];
    // The sandbox's own form (/sandbox/kyc/{id}) submits through the same vendor.
    for (const name of [...smileIdCallers, 'submitSandboxVerificationPage']) {
      const access = secretAccessOf(staging, 'staging', name);
      expect(access?.readable.has(id), name).toBe(true);
      expect(access?.variables, name).toMatchObject({
        IDENTITY_VENDOR: 'smileid',
        SMILE_ID_BASE_URL: 'https://testapi.smileidentity.com/v1',
        SMILE_ID_SECRET_ARN: { Ref: id },
      });
    }
  });

  it("refuses production with the sandbox's check, and settings Smile ID would not read", () => {
    expect(() => build('prod', { identityVendor: 'sandbox' })).toThrow(
      /^Stage "prod" in cdk.json: identityVendor: a production stage cannot use the sandbox's own identity check/,
    );
    expect(() => build('prod', { identityVendor: 'veriff' })).toThrow(
      /^Stage "prod" in cdk.json: identityVendor: must be one of sandbox, smileid/,
    );
    expect(() => build('dev', { smileIdBaseUrl: 'https://testapi.smileidentity.com/v1' })).toThrow(
      /^Stage "dev" in cdk.json: smileIdBaseUrl is read only where identityVendor is "smileid"/,
    );
    expect(() => build('prod', { smileIdBaseUrl: 'http://api.smileidentity.com/v1' })).toThrow(
      /smileIdBaseUrl: must be an https:\/\/ URL/,
    );
    expect(() => build('prod', { smileIdIdTypes: { GH: 'GHANA_CARD' } })).toThrow(
      /smileIdIdTypes: GH: a country of the zone/,
    );
    expect(() => build('prod', { smileIdIdTypes: { SN: '' } })).toThrow(
      /smileIdIdTypes: SN must name one of Smile ID's ID types/,
    );
    expect(() =>
      build('dev', { smileIdWebScriptUrl: 'https://cdn.smileidentity.com/inline/v1/js/script.min.js' }),
    ).toThrow(/^Stage "dev" in cdk.json: smileIdWebScriptUrl is read only where identityVendor is "smileid"/);
    expect(() =>
      build('prod', { smileIdWebScriptUrl: 'http://cdn.smileidentity.com/inline/v1/js/script.min.js' }),
    ).toThrow(/smileIdWebScriptUrl: must be an https:\/\/ URL/);
  });

  it("hands a stage's Smile ID web script to its functions, which allow its origin on the capture page", () => {
    const scriptUrl = 'https://cdn.smileidentity.com/inline/v11/js/script.min.js';
    const entry = stageEntry(
      {
        ...registry,
        staging: { ...registry.staging, identityVendor: 'smileid', smileIdWebScriptUrl: scriptUrl },
      },
      'staging',
    );
    expect(entry.environment).toMatchObject({
      IDENTITY_VENDOR: 'smileid',
      SMILE_ID_WEB_SCRIPT_URL: scriptUrl,
    });
    // Unset, the functions load Smile ID's published CDN script (shared/identity/smile-id.ts).
    expect(stageEntry(registry, 'prod').environment).not.toHaveProperty('SMILE_ID_WEB_SCRIPT_URL');
  });

  it('gives production Smile ID when its entry names no vendor', () => {
    const { identityVendor: _named, ...unnamed } = registry.prod ?? {};
    const entry = stageEntry({ ...registry, prod: unnamed }, 'prod');
    expect(entry.environment.IDENTITY_VENDOR).toBe('smileid');
    expect(stageEntry(registry, 'dev').environment).not.toHaveProperty('IDENTITY_VENDOR');
  });
});
