import { randomBytes, randomUUID } from 'node:crypto';
import type { MtnCredentials } from '#shared/providers/mtn.ts';
import { startMtnFake } from '#test/fakes/mtn-fake.ts';
import { startWaveFake } from '#test/fakes/wave-fake.ts';

export interface FakeProviders {
  waveUrl: string;
  mtnUrl: string;
  /** Called once the service's own URL is known: Wave's webhook URL is registered then. */
  serviceIsAt(baseUrl: string): void;
  stop(): Promise<void>;
}

/**
 * `PROVIDERS=fake`: the local host sends Wave and MTN MoMo payments through their real adapters, to
 * the contract fakes of both APIs (test/fakes/), with fresh credentials each run. The other methods
 * stay on the sandbox. Sets the variables the adapters read, as a deployed stage's stack does.
 */
export async function startFakeProviders(): Promise<FakeProviders> {
  const wave = {
    apiKey: `wave_ci_prod_${randomBytes(16).toString('hex')}`,
    webhookSecret: randomBytes(24).toString('hex'),
  };
  const product = () => ({
    subscriptionKey: randomBytes(16).toString('hex'),
    apiUser: randomUUID(),
    apiKey: randomBytes(16).toString('hex'),
  });
  const mtn: MtnCredentials = { collection: product(), disbursement: product() };
  const waveFake = await startWaveFake({ ...wave, webhookUrl: 'http://127.0.0.1:9/not-yet-known' });
  const mtnFake = await startMtnFake({ credentials: mtn, targetEnvironment: 'sandbox' });
  // Routes given beside PROVIDERS=fake (pawaPay's, say) are kept.
  process.env.PROVIDER_ROUTES ??= JSON.stringify({ wave: 'wave', mtn: 'mtn' });
  process.env.WAVE_API_URL = waveFake.url;
  process.env.WAVE_PROVIDER_SECRET = JSON.stringify(wave);
  process.env.MTN_API_URL = mtnFake.url;
  process.env.MTN_TARGET_ENVIRONMENT = 'sandbox';
  process.env.MTN_PROVIDER_SECRET = JSON.stringify(mtn);
  return {
    waveUrl: waveFake.url,
    mtnUrl: mtnFake.url,
    serviceIsAt: (baseUrl) => waveFake.setWebhookUrl(`${baseUrl}/provider_callbacks/wave`),
    stop: async () => {
      await Promise.all([waveFake.close(), mtnFake.close()]);
    },
  };
}
