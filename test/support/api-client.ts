import { randomUUID } from 'node:crypto';
import { admin } from '#test/support/local-host.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the tests' assertions
export type Body = any;

export interface Merchant {
  businessId: string;
  storeId: string;
  headers: Record<string, string>;
}

/**
 * A merchant of its own on the local host (business, store, key), made with the admin command;
 * its store in `country` (a UEMOA code) when given.
 */
export async function newMerchant(dataDir: string, name = 'Boutique', country?: string): Promise<Merchant> {
  const { businessId } = await admin(
    dataDir,
    'create-business',
    '--name',
    `${name} ${randomUUID().slice(0, 6)}`,
  );
  const storeId = await newStore(dataDir, businessId as string, `${name} Plateau`, country);
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId as string);
  return {
    businessId: businessId as string,
    storeId,
    headers: {
      'X-API-KEY-ID': keyId as string,
      'X-API-KEY': key as string,
      'content-type': 'application/json',
    },
  };
}

/** A platform key of the business (scoped to one store when given), made with the admin command. */
export async function platformKey(dataDir: string, businessId: string, storeId?: string) {
  const { keyId, key } = await admin(
    dataDir,
    'create-key',
    '--business',
    businessId,
    '--kind',
    'platform',
    ...(storeId ? ['--store', storeId] : []),
  );
  return { keyId: keyId as string, key: key as string };
}

/** The business's webhook subscription, set with the admin command (`events` comma-separated). */
export async function setWebhook(dataDir: string, businessId: string, url: string, events?: string) {
  const { subscriptionId, secret } = await admin(
    dataDir,
    'set-webhook',
    '--business',
    businessId,
    '--url',
    url,
    ...(events ? ['--events', events] : []),
  );
  return { subscriptionId: subscriptionId as string, secret: secret as string };
}

/** Another store of the business, made with the admin command (in `country` when given): its id. */
export async function newStore(dataDir: string, businessId: string, name: string, country?: string) {
  const { storeId } = await admin(
    dataDir,
    'create-store',
    '--business',
    businessId,
    '--name',
    name,
    ...(country ? ['--country', country] : []),
  );
  return storeId as string;
}

export function apiClient(baseUrl: string) {
  return async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Body };
  };
}

/** Calls the API as the local host's demo business, as the hosted-page tests' merchant does. */
export function demoApi(config: { baseUrl: string; demo: { apiKeyId: string; apiKey: string } }) {
  const call = apiClient(config.baseUrl);
  const headers = {
    'X-API-KEY-ID': config.demo.apiKeyId,
    'X-API-KEY': config.demo.apiKey,
    'content-type': 'application/json',
  };
  return (method: string, path: string, body?: unknown) => call(method, path, headers, body);
}
