/**
 * The stage (infra/constructs/stage.ts): its entry in the registry of cdk.json, checked at synth
 * (infra/stage-registry.ts), the settings the entry hands the functions (infra/stage-config.ts), and
 * its kind, not its name, deciding what production keeps.
 */
import { describe, expect, it } from 'vitest';
import { stackName } from '#infra/naming.ts';
import { buildPaymentsApp } from '#infra/payments-app.ts';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import { functionEntries } from '#shared/catalogue/all-functions.ts';
import { collectionCeiling } from '#shared/domain/ceilings.ts';
import { feeScheduleFromEnvironment } from '#shared/domain/fees.ts';
import { appFor, build, registry, registryWith } from '#test/support/stage-synth.ts';
import { synthesizedStages } from '#test/support/stage-synthesized.ts';
import { stageTemplateOf } from '#test/support/stage-template.ts';
import { functionOf, functionsNamed, type Json, resourcesOf } from '#test/support/stage-template-queries.ts';

const { dev, prod } = await synthesizedStages();

describe('the stage', () => {
  it('is required', () => {
    expect(() => buildPaymentsApp(appFor({}))).toThrow(/-c stage=NAME/);
  });

  it('must be in the registry, refused at synth with the known stages named', () => {
    expect(() => buildPaymentsApp(appFor({ stage: 'prdo' }))).toThrow(
      /^Unknown stage "prdo": add it to context.stages in cdk.json \(known: dev, staging, prod\)$/,
    );
  });

  it('is never the local host', () => {
    expect(() =>
      buildPaymentsApp(appFor({ stage: 'local', ...registryWith('local', registry.dev ?? {}) })),
    ).toThrow(/"local" is the local host/);
  });

  it('must be a plain name, since it becomes part of resource names', () => {
    expect(() =>
      buildPaymentsApp(appFor({ stage: 'Prod_1', ...registryWith('Prod_1', registry.dev ?? {}) })),
    ).toThrow(/^Stage "Prod_1" in cdk.json: the name must match/);
  });

  it.each([
    [{ kind: 'live' }, /kind must be "sandbox" or "production"/],
    [{ account: 123456789012 }, /account must be a 12-digit AWS account id/],
    [{ region: 'Ireland' }, /region must be an AWS region/],
    [{ alarmEmail: undefined }, /alarmEmail must be an e-mail address/],
    [
      { allowedOrigins: ['https://shop.example.com/cart'] },
      /allowedOrigins: "https:\/\/shop.example.com\/cart" is not an https:\/\/ origin/,
    ],
    [{ allowedOrigins: ['https://shop.example.com'] }, /allowedOrigins must be \[\] for now/],
    [{ providerRouting: { wave: 'other' } }, /providerRouting is reserved/],
    [{ feeSchedul: {} }, /unknown field feeSchedul/],
  ])('entry %j is refused, naming the field', (change, message) => {
    const stages = registryWith('dev', { ...registry.dev, ...change });
    expect(() => buildPaymentsApp(appFor({ stage: 'dev', ...stages }))).toThrow(message);
  });

  it('is refused up front when a resource name would exceed its limit, with the longest name that fits', () => {
    // The longest function name decides: `partner-payments-<stage>-<longest route>` within 64.
    const longestFunction = Math.max(...functionEntries.map(([name]) => name.length));
    const fits = 64 - 'partner-payments-'.length - 1 - longestFunction;
    const stage = `s${'a'.repeat(fits)}`;
    const entry = registry.dev ?? {};
    expect(() => buildPaymentsApp(appFor({ stage, ...registryWith(stage, entry) }))).toThrow(
      new RegExp(
        `^Stage name "${stage}" is too long: the function name partner-payments-${stage}-\\w+ would be 65 characters, over the limit of 64\\. Stage names may have at most ${fits} characters`,
      ),
    );
    const atLimit = stage.slice(1);
    expect(() => buildPaymentsApp(appFor({ stage: atLimit, ...registryWith(atLimit, entry) }))).not.toThrow();
  });

  it('names the stack, pinned to the registry account and region', () => {
    expect(prod.stack.stackName).toBe(stackName('prod'));
    expect(prod.stack.account).toBe(registry.prod?.account);
    expect(prod.stack.region).toBe(registry.prod?.region);
  });

  it("subscribes the registry's alarm e-mail to the alarm topic", () => {
    prod.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: registry.prod?.alarmEmail,
    });
  });
});

describe("stage settings from the stage's registry entry", () => {
  const feeSchedule = { wave: { percentBasisPoints: 80, fixedCents: 25 } };
  const collectionCeilings = { '1': 500_000_000, '3': null };
  // One given as JSON text, one with a trailing slash the stage must not double.
  const configured = build(
    'staging',
    registryWith('staging', {
      ...registry.staging,
      feeSchedule: JSON.stringify(feeSchedule),
      collectionCeilings,
      publicBaseUrl: 'https://pay.example.com/',
    }),
  );
  const synthWith = (settings: Record<string, unknown>) => () =>
    buildPaymentsApp(appFor({ stage: 'dev', ...registryWith('dev', { ...registry.dev, ...settings }) }));

  it('reach every function, in a form the functions read back as given', () => {
    const functions = resourcesOf(configured.template, 'AWS::Lambda::Function');
    expect(functions).toHaveLength(functionEntries.length);
    for (const [, fn] of functions) {
      const variables = fn.Properties.Environment.Variables;
      const name = fn.Properties.FunctionName;
      expect(variables.PUBLIC_BASE_URL, name).toBe('https://pay.example.com');
      expect(feeScheduleFromEnvironment(variables.FEE_SCHEDULE).wave, name).toEqual(feeSchedule.wave);
      expect(feeScheduleFromEnvironment(variables.FEE_SCHEDULE).orange, name).toEqual(
        feeScheduleFromEnvironment('').orange,
      );
      expect(collectionCeiling(1, variables.COLLECTION_CEILINGS), name).toBe(500_000_000);
      expect(collectionCeiling(3, variables.COLLECTION_CEILINGS), name).toBeNull();
    }
  });

  it('are not set when not given, so the functions keep their defaults', () => {
    for (const [, fn] of resourcesOf(dev.template, 'AWS::Lambda::Function')) {
      const variables = fn.Properties.Environment.Variables;
      for (const variable of ['FEE_SCHEDULE', 'COLLECTION_CEILINGS', 'PUBLIC_BASE_URL']) {
        expect(variables, `${fn.Properties.FunctionName} ${variable}`).not.toHaveProperty(variable);
      }
    }
  });

  it('paymentRequestMinLifetimeSeconds reaches the functions, and is whole seconds from 1 to 1 day', () => {
    const template = stageTemplateOf(synthWith({ paymentRequestMinLifetimeSeconds: 120 })());
    const [, fn] = functionOf(template, 'dev', 'createPaymentRequest');
    expect(fn.Properties.Environment.Variables.PAYMENT_REQUEST_MIN_LIFETIME_SECONDS).toBe('120');
    for (const refused of [0, 2.5, 86_401, 'soon']) {
      expect(synthWith({ paymentRequestMinLifetimeSeconds: refused })).toThrow(
        /Stage "dev" in cdk.json: paymentRequestMinLifetimeSeconds: must be a whole number of seconds from 1 to 1 day/,
      );
    }
  });

  it('escrowMinHoldSeconds reaches the functions, and is whole seconds from 1 to 90 days', () => {
    const template = stageTemplateOf(synthWith({ escrowMinHoldSeconds: 7200 })());
    const [, fn] = functionOf(template, 'dev', 'createPaymentRequest');
    expect(fn.Properties.Environment.Variables.ESCROW_MIN_HOLD_SECONDS).toBe('7200');
    for (const refused of [0, 1.5, 91 * 86_400, 'soon']) {
      expect(synthWith({ escrowMinHoldSeconds: refused })).toThrow(
        /Stage "dev" in cdk.json: escrowMinHoldSeconds: must be a whole number of seconds from 1 to 90 days/,
      );
    }
  });

  it('payoutAccountCoolingSeconds and smsSegmentPriceCents reach the functions that read them, within their bounds', () => {
    const template = stageTemplateOf(
      synthWith({ payoutAccountCoolingSeconds: 3600, smsSegmentPriceCents: 2000 })(),
    );
    const [, account] = functionOf(template, 'dev', 'createPayoutAccount');
    expect(account.Properties.Environment.Variables.PAYOUT_ACCOUNT_COOLING_SECONDS).toBe('3600');
    const [, credit] = functionOf(template, 'dev', 'buySmsCredit');
    expect(credit.Properties.Environment.Variables.SMS_SEGMENT_PRICE_CENTS).toBe('2000');
    for (const refused of [-1, 1.5, 8 * 86_400, 'later']) {
      expect(synthWith({ payoutAccountCoolingSeconds: refused })).toThrow(
        /Stage "dev" in cdk.json: payoutAccountCoolingSeconds: must be a whole number of seconds from 0 to 7 days/,
      );
    }
    for (const refused of [0, 2550, 100_100, 'cheap']) {
      expect(synthWith({ smsSegmentPriceCents: refused })).toThrow(
        /Stage "dev" in cdk.json: smsSegmentPriceCents: must be whole francs in cents/,
      );
    }
  });

  it('signInCodesPerHour and signInCodesPerAddressPerHour reach the dashboard’s sign-in function, and are whole numbers from 1 to 100000', () => {
    const template = stageTemplateOf(
      synthWith({ signInCodesPerHour: 200, signInCodesPerAddressPerHour: 60 })(),
    );
    const [, fn] = functionOf(template, 'dev', 'submitSignInPage');
    expect(fn.Properties.Environment.Variables.SIGN_IN_CODES_PER_HOUR).toBe('200');
    expect(fn.Properties.Environment.Variables.SIGN_IN_CODES_PER_ADDRESS_PER_HOUR).toBe('60');
    for (const refused of [0, 2.5, 100_001, 'many']) {
      expect(synthWith({ signInCodesPerHour: refused })).toThrow(
        /Stage "dev" in cdk.json: signInCodesPerHour: must be a whole number of codes from 1 to 100000/,
      );
    }
    expect(synthWith({ signInCodesPerAddressPerHour: 0 })).toThrow(
      /Stage "dev" in cdk.json: signInCodesPerAddressPerHour: must be a whole number of codes from 1 to 100000/,
    );
  });

  it.each(['feeSchedule', 'collectionCeilings', 'publicBaseUrl', 'escrowMinHoldSeconds'])(
    'are refused as -c %s, which the next deploy would forget',
    (name) => {
      expect(() => buildPaymentsApp(appFor({ stage: 'dev', [name]: '{}' }))).toThrow(
        new RegExp(
          `-c ${name} is no longer read: set ${name} in the stage's entry of context.stages in cdk.json`,
        ),
      );
    },
  );

  it('may come already parsed, from cdk.json', () => {
    const stack = synthWith({ collectionCeilings: { '2': 0 } })();
    const [, fn] = functionOf(stageTemplateOf(stack), 'dev', 'listStores');
    expect(fn.Properties.Environment.Variables.COLLECTION_CEILINGS).toBe('{"2":0}');
  });

  it.each([
    ['{"wave": {', /^Stage "dev" in cdk.json: feeSchedule: not JSON/],
    ['[]', /^Stage "dev" in cdk.json: feeSchedule: must be a JSON object/],
    ['{"visa": {"percentBasisPoints": 100, "fixedCents": 0}}', /feeSchedule.*unknown payment method: visa/],
    ['{"wave": {"percentBasisPoints": 10001, "fixedCents": 0}}', /feeSchedule.*wave\.percentBasisPoints/],
    ['{"wave": {"percentBasisPoints": 100, "fixedCents": -1}}', /feeSchedule.*wave\.fixedCents/],
    ['{"wave": {"percentBasisPoints": 100}}', /feeSchedule.*wave\.fixedCents/],
    ['{"wave": null}', /^Stage "dev" in cdk.json: feeSchedule: wave must be an object/],
  ])('refuse feeSchedule %s, naming it', (value, message) => {
    expect(synthWith({ feeSchedule: value })).toThrow(message);
  });

  it.each([
    ['{"1": 2000', /^Stage "dev" in cdk.json: collectionCeilings: not JSON/],
    ['null', /^Stage "dev" in cdk.json: collectionCeilings: must be a JSON object/],
    ['{"1": -1}', /collectionCeilings.*level 1 must be a non-negative integer/],
    ['{"1": 1.5}', /collectionCeilings.*level 1 must be a non-negative integer/],
    ['{"1": "200000000"}', /collectionCeilings.*level 1 must be a non-negative integer/],
    ['{"gold": 100}', /collectionCeilings.*gold is not a verification level/],
  ])('refuse collectionCeilings %s, naming it', (value, message) => {
    expect(synthWith({ collectionCeilings: value })).toThrow(message);
  });

  it.each([
    ['pay.example.com', /^Stage "dev" in cdk.json: publicBaseUrl: not an absolute URL/],
    ['http://pay.example.com', /^Stage "dev" in cdk.json: publicBaseUrl: must be an https:\/\/ URL/],
    ['https://pay.example.com/?stage=dev', /^Stage "dev" in cdk.json: publicBaseUrl: must have no query/],
  ])('refuse publicBaseUrl %s, naming it', (value, message) => {
    expect(synthWith({ publicBaseUrl: value })).toThrow(message);
  });
});

describe('the stage kind, not its name, decides production', () => {
  const mislabelled = build('production', registryWith('production', { ...registry.dev }));
  // In an account of its own: a production stage may share its account with no other stage.
  const liveDev = build(
    'dev',
    registryWith('dev', { ...registry.dev, kind: 'production', account: '333333333333' }),
  );
  const sandboxRoutes = endpointEntries.filter(([, route]) => route.sandboxOnly === true);

  it('a sandbox named "production" is a destroyable sandbox, with its test routes', () => {
    expect(mislabelled.stack.terminationProtection).toBe(false);
    for (const [name] of sandboxRoutes) functionOf(mislabelled.template, 'production', name);
  });

  it.each([
    ['prod', prod],
    ['dev', liveDev],
  ])(
    'production stage %s has termination protection, retention, deletion protection, no sandbox routes',
    (stage, built) => {
      expect(built.stack.terminationProtection).toBe(true);
      const [, table] = resourcesOf(built.template, 'AWS::DynamoDB::Table')[0] as [string, Json];
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.UpdateReplacePolicy).toBe('Retain');
      expect(table.Properties.DeletionProtectionEnabled).toBe(true);
      for (const [, group] of resourcesOf(built.template, 'AWS::Logs::LogGroup')) {
        expect(group.DeletionPolicy).toBe('Retain');
      }
      expect(sandboxRoutes.length).toBeGreaterThan(0);
      for (const [name] of sandboxRoutes) expect(functionsNamed(built.template, stage, name)).toEqual([]);
      const paths = resourcesOf(built.template, 'AWS::ApiGateway::Resource').map(
        ([, resource]) => resource.Properties.PathPart,
      );
      expect(paths).not.toContain('sandbox');
    },
  );
});
