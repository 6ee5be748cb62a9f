/**
 * The arguments of `admin set-webhook`, checked apart from the command so tests can reach them
 * (infra/admin.ts runs as soon as it is imported).
 */
import {
  defaultWebhookEvents,
  type WebhookEventName,
  webhookEventNames,
} from '#shared/domain/webhook-events.ts';
import { refusedWebhookUrl, type WebhookUrlPolicy } from '#shared/domain/webhook-url.ts';

/**
 * The URL policy of the place the command acts on, chosen here rather than read from the admin
 * process's environment: a deployed stage's sender refuses plain http and internal addresses,
 * while the local host delivers to a receiver on the same laptop.
 */
export function adminWebhookUrlPolicy(stage: string | undefined): WebhookUrlPolicy {
  return stage ? { requireHttps: true, allowLoopback: false } : { requireHttps: false, allowLoopback: true };
}

export interface WebhookSettings {
  url: string;
  events: WebhookEventName[];
}

/** The subscription's URL and events, or why they are refused. */
export function webhookSettings(
  args: { url: string; events?: string | undefined },
  policy: WebhookUrlPolicy,
): WebhookSettings | { refused: string } {
  const reason = refusedWebhookUrl(args.url, policy);
  if (reason) return { refused: `--url ${args.url} is refused: ${reason}` };
  if (args.events === undefined) return { url: args.url, events: [...defaultWebhookEvents] };
  const names = args.events
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) return { refused: '--events must name at least one event' };
  const known = new Set<string>(webhookEventNames);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    return { refused: `--events: unknown ${unknown.join(', ')} (known: ${webhookEventNames.join(', ')})` };
  }
  return { url: args.url, events: [...new Set(names as WebhookEventName[])] };
}
