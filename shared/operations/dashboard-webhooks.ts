import type { WebhookBodyFormat } from '#shared/data/webhook-subscription.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import { webhookEventNames } from '#shared/domain/webhook-events.ts';
import { ValidationFailed } from '#shared/errors/request.ts';
import { WebhookDeliveryNotFound, WebhookSubscriptionExists } from '#shared/errors/webhooks.ts';
import { recordAudit } from '#shared/operations/audit-log.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import {
  changeOwnSubscription,
  createOwnSubscription,
  deleteOwnSubscription,
  ownSubscriptions,
  requireAllowedWebhookUrl,
  rotateOwnSecret,
  sendTestEvent,
} from '#shared/operations/own-webhook-subscription.ts';
import { resendWebhookDelivery, webhookDeliveriesOf } from '#shared/operations/webhook-deliveries.ts';

/**
 * The webhooks page's actions: the business's own subscription through the operations the API
 * uses (`own-webhook-subscription.ts`), each change recorded in the audit log once it is made.
 */
export const deliveriesShown = 20;

export async function webhooksOverview(member: ActingMember) {
  const [[subscription], log] = await Promise.all([
    ownSubscriptions(member),
    webhookDeliveriesOf(member, { page: 1, limit: deliveriesShown }),
  ]);
  return { subscription, deliveries: log.data };
}

export interface WebhookForm {
  subscriptionId?: string | undefined;
  url: string;
  name: string;
  events: string[];
  bodyFormat: WebhookBodyFormat;
}

/** The form's fields as posted: one checkbox an event (`event.<NAME>`), names the service sends only. */
export function webhookFormOf(fields: Readonly<Record<string, string | undefined>>): WebhookForm {
  return {
    subscriptionId: fields.subscriptionId || undefined,
    url: (fields.url ?? '').trim(),
    name: (fields.name ?? '').trim(),
    events: webhookEventNames.filter((name) => fields[`event.${name}`] !== undefined),
    bodyFormat: fields.bodyFormat === 'envelope' ? 'envelope' : 'flat',
  };
}

export type SaveOutcome =
  | { outcome: 'created'; secret: string }
  | { outcome: 'changed' }
  | { outcome: 'invalid'; errors: { field: 'url' | 'events'; message?: string | undefined }[] }
  | { outcome: 'exists' };

export async function saveWebhookForm(
  member: ActingMember,
  form: WebhookForm,
  sourceIp: string,
): Promise<SaveOutcome> {
  const errors: { field: 'url' | 'events'; message?: string | undefined }[] = [];
  if (form.url === '') errors.push({ field: 'url' });
  else {
    try {
      requireAllowedWebhookUrl(form.url);
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      errors.push({ field: 'url', message: error.errors[0]?.message });
    }
  }
  if (form.events.length === 0) errors.push({ field: 'events' });
  if (errors.length > 0) return { outcome: 'invalid', errors };
  const name = form.name === '' ? member.businessName : form.name.slice(0, 255);
  try {
    if (form.subscriptionId) {
      const changed = await changeOwnSubscription(member, form.subscriptionId, { ...form, name });
      await recordAudit(member, {
        action: 'webhook_changed',
        subjectId: changed.id,
        detail: changed.url,
        sourceIp,
      });
      return { outcome: 'changed' };
    }
    const created = await createOwnSubscription(member, { ...form, name });
    await recordAudit(member, {
      action: 'webhook_created',
      subjectId: created.id,
      detail: created.url,
      sourceIp,
    });
    return { outcome: 'created', secret: created.secret };
  } catch (error) {
    if (error instanceof WebhookSubscriptionExists) return { outcome: 'exists' };
    if (error instanceof ValidationFailed) {
      return { outcome: 'invalid', errors: [{ field: 'url', message: error.errors[0]?.message }] };
    }
    throw error;
  }
}

export async function deleteWebhook(member: ActingMember, subscriptionId: string, sourceIp: string) {
  await deleteOwnSubscription(member, subscriptionId);
  await recordAudit(member, { action: 'webhook_deleted', subjectId: subscriptionId, sourceIp });
}

export async function rotateWebhookSecret(member: ActingMember, subscriptionId: string, sourceIp: string) {
  const secret = await rotateOwnSecret(member, subscriptionId);
  await recordAudit(member, { action: 'webhook_secret_rotated', subjectId: subscriptionId, sourceIp });
  return secret;
}

export async function sendWebhookTest(member: ActingMember, sourceIp: string) {
  const delivery = await sendTestEvent(member, member.businessName);
  await recordAudit(member, {
    action: 'webhook_test_sent',
    subjectId: delivery.id,
    detail: delivery.url,
    sourceIp,
  });
}

export async function resendDelivery(member: ActingMember, deliveryId: string, sourceIp: string) {
  if (!uuidPattern.test(deliveryId)) throw new WebhookDeliveryNotFound();
  const delivery = await resendWebhookDelivery(member, deliveryId.toLowerCase());
  await recordAudit(member, {
    action: 'webhook_delivery_resent',
    subjectId: delivery.id,
    detail: delivery.eventName,
    sourceIp,
  });
}
