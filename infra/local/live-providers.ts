import { checkProviderRoutes } from '#infra/stage-config.ts';

/**
 * The local host's own routes to live adapters, from its environment: PROVIDER_ROUTES (JSON, method
 * → adapter or method → {country → adapter, "*": adapter}, as a stage's registry entry), and
 * pawaPay at any base URL with PAWAPAY_BASE_URL (pawaPay's sandbox by default), PAWAPAY_API_TOKEN
 * and, optionally, PAWAPAY_CALLBACK_PUBLIC_KEY (PEM; `\n` may stand for its line breaks). A route
 * that does not parse stops the host with the registry's own message. Methods not routed stay on
 * the sandbox, as on every sandbox stage.
 */
export function useLiveProviderEnvironment(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.PROVIDER_ROUTES) {
    try {
      env.PROVIDER_ROUTES = checkProviderRoutes(env.PROVIDER_ROUTES);
    } catch (error) {
      throw new Error(`PROVIDER_ROUTES: ${(error as Error).message}`);
    }
  }
  if (env.PAWAPAY_API_TOKEN && !env.PAWAPAY_PROVIDER_SECRET) {
    const key = env.PAWAPAY_CALLBACK_PUBLIC_KEY?.replaceAll('\\n', '\n');
    env.PAWAPAY_PROVIDER_SECRET = JSON.stringify({
      apiToken: env.PAWAPAY_API_TOKEN,
      ...(key ? { callbackPublicKey: key } : {}),
    });
  }
  const routes = env.PROVIDER_ROUTES ? (JSON.parse(env.PROVIDER_ROUTES) as Record<string, unknown>) : {};
  return Object.entries(routes).map(
    ([method, route]) => `${method} → ${typeof route === 'string' ? route : JSON.stringify(route)}`,
  );
}
