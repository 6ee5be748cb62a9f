import { enum as enumOf, globalRegistry, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { trimmedText } from '#shared/api/form-fields.ts';
import { sendsWebhooks, writesTable } from '#shared/catalogue/access.ts';
import { type WebhookEventName, webhookEventNames } from '#shared/domain/webhook-events.ts';

/**
 * The dashboard's pages for developers (issue 25, items 6-8): the business's API keys, its own
 * webhook subscription with the delivery log, and the audit log. Each page declares the permission
 * its member's role needs (`permission`), asked before the page runs, so a hand-made post of a role
 * that may not is refused (403) before anything is read or written. As on every dashboard page, a post needs the site's Origin and the
 * session's CSRF token, and the session's every request may move its idle time on (a write).
 */
const query = object({
  lang: optional(enumOf(['fr', 'en'])).register(globalRegistry, {
    description: 'The page’s language; by default the browser’s (`Accept-Language`), French otherwise.',
  }),
});
const csrf = string().register(globalRegistry, { description: 'The session’s form token (hidden field).' });
const forbidden =
  'A post whose Origin is not the service’s own, or without the session’s token, or by a role that may not: nothing changes.';
const signedOut = 'No session: to the sign-in page.';
const notAForm = 'A body that is not a form, or a field longer than the form takes.';
const tag = 'Dashboard';
const keyParams = object({ keyId: string() });
const deliveryParams = object({ deliveryId: string() });
const createsWebhookSecrets = [...writesTable, 'key:webhookSecrets:encrypt'] as const;
/** One checkbox an event (`event.TRANSACTION_COMPLETED=on`): there when ticked. */
const eventCheckboxes = Object.fromEntries(
  webhookEventNames.map((name) => [`event.${name}`, optional(string())]),
) as {
  [Name in WebhookEventName as `event.${Name}`]: ReturnType<typeof optional<ReturnType<typeof string>>>;
};

export const dashboardDeveloperEndpoints = /* @__PURE__ */ endpointsIn('dashboard', {
  apiKeysPage: {
    method: 'GET',
    path: '/dashboard/api-keys',
    caller: 'public',
    permission: 'read',
    // The DeleteItem takes a new key's secret, kept for this page alone (shared/data/shown-once.ts).
    access: ['table:DeleteItem', 'table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The business’s API keys, and the form that makes one; a key just made, its secret once',
    query: object({
      lang: query.shape.lang,
      created: optional(string()).register(globalRegistry, {
        description:
          'A key just made: its id and secret, shown this once (a reload shows the list, saying so).',
      }),
      revoked: optional(string()).register(globalRegistry, {
        description: 'A key was just revoked: said so.',
      }),
    }),
    answers: {
      200: 'The keys; the form for roles that manage keys; or a key just made, its secret shown only here.',
      303: signedOut,
    },
  },
  createApiKeyPage: {
    method: 'POST',
    path: '/dashboard/api-keys',
    caller: 'public',
    permission: 'manageKeys',
    access: ['table:ConditionCheckItem', 'table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Make an API key: its id and secret, shown once',
    query,
    form: object({
      csrf,
      name: trimmedText(),
      kind: optional(enumOf(['merchant', 'platform', 'store_platform'])),
      storeId: optional(string()).register(globalRegistry, { description: 'For a key scoped to one store.' }),
    }),
    answers: {
      303: 'Made: to the keys page, which shows its secret once (post, then redirect: a reload makes no second key); no session: to the sign-in page.',
      400: 'The form again, with its errors; or a body that is not a form.',
      403: forbidden,
      404: 'The store is not one of the business’s.',
      409: 'Ten keys are live already: the form again, saying so.',
    },
  },
  confirmRevokeApiKeyPage: {
    method: 'GET',
    path: '/dashboard/api-keys/{keyId}/revoke',
    caller: 'public',
    permission: 'manageKeys',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Ask before revoking a key',
    params: keyParams,
    query,
    answers: { 200: 'The confirmation.', 303: signedOut, 403: forbidden, 404: 'Not a key of the business.' },
  },
  revokeApiKeyPage: {
    method: 'POST',
    path: '/dashboard/api-keys/{keyId}/revoke',
    caller: 'public',
    permission: 'manageKeys',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Revoke a key: the API answers 401 for it from the next request on',
    params: keyParams,
    query,
    form: object({ csrf }),
    answers: {
      303: 'To the keys, saying it was revoked.',
      400: notAForm,
      403: forbidden,
      404: 'Not a key of the business.',
    },
  },
  webhooksPage: {
    method: 'GET',
    path: '/dashboard/webhooks',
    caller: 'public',
    permission: 'read',
    // The DeleteItem takes a secret just made, kept for this page alone (shared/data/shown-once.ts).
    access: ['table:DeleteItem', 'table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The business’s webhook subscription and its delivery log; a secret just made, once',
    query: object({
      lang: query.shape.lang,
      secret: optional(enumOf(['created', 'rotated'])).register(globalRegistry, {
        description:
          'A secret was just made: shown this once (a reload shows the page, saying it was shown).',
      }),
      deleted: optional(string()).register(globalRegistry, { description: 'Just deleted: said so.' }),
      changed: optional(string()).register(globalRegistry, { description: 'Just changed: said so.' }),
    }),
    answers: {
      200: 'The subscription’s form, its actions and the log; or a secret just made, shown only here.',
      303: signedOut,
    },
  },
  saveWebhookPage: {
    method: 'POST',
    path: '/dashboard/webhooks',
    caller: 'public',
    permission: 'manageWebhooks',
    access: createsWebhookSecrets,
    page: true,
    tag,
    summary: 'Create the subscription (its secret shown once) or change it',
    query,
    form: object({
      csrf,
      subscriptionId: optional(string()).register(globalRegistry, {
        description: 'The subscription changed; none to create one.',
      }),
      url: trimmedText(),
      name: trimmedText(),
      bodyFormat: optional(enumOf(['flat', 'envelope'])),
      ...eventCheckboxes,
    }),
    answers: {
      303: 'Created: to the webhooks page, which shows the secret once (post, then redirect); changed: to the webhooks page, saying so.',
      400: 'The form again, with its errors (the URL policy, no event); or a body that is not a form.',
      403: forbidden,
      404: 'The subscription changed is no longer the business’s.',
      409: 'The business has a subscription already.',
    },
  },
  confirmDeleteWebhookPage: {
    method: 'GET',
    path: '/dashboard/webhooks/delete',
    caller: 'public',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Ask before deleting the subscription: what stops, and that it cannot be undone',
    permission: 'manageWebhooks',
    query,
    answers: { 200: 'The confirmation.', 303: signedOut, 403: forbidden, 404: 'No subscription.' },
  },
  deleteWebhookPage: {
    method: 'POST',
    path: '/dashboard/webhooks/delete',
    caller: 'public',
    permission: 'manageWebhooks',
    access: ['table:DeleteItem', 'table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Delete the subscription',
    query,
    form: object({ csrf, subscriptionId: string() }),
    answers: {
      303: 'To the webhooks page, saying it was deleted.',
      400: notAForm,
      403: forbidden,
      404: 'Not the business’s subscription.',
    },
  },
  confirmRotateWebhookSecretPage: {
    method: 'GET',
    path: '/dashboard/webhooks/rotate-secret',
    caller: 'public',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Ask before replacing the signing secret: the old one stops at once',
    permission: 'manageWebhooks',
    query,
    answers: { 200: 'The confirmation.', 303: signedOut, 403: forbidden, 404: 'No subscription.' },
  },
  rotateWebhookSecretPage: {
    method: 'POST',
    path: '/dashboard/webhooks/rotate-secret',
    caller: 'public',
    permission: 'manageWebhooks',
    access: [
      'table:GetItem',
      'table:PutItem',
      'table:Query',
      'table:UpdateItem',
      'key:webhookSecrets:encrypt',
    ],
    page: true,
    tag,
    summary: 'A new signing secret, shown once',
    query,
    form: object({ csrf, subscriptionId: string() }),
    answers: {
      303: 'To the webhooks page, which shows the new secret once (post, then redirect).',
      400: notAForm,
      403: forbidden,
      404: 'Not the business’s subscription.',
    },
  },
  sendTestWebhookPage: {
    method: 'POST',
    path: '/dashboard/webhooks/test',
    caller: 'public',
    permission: 'manageWebhooks',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem', ...sendsWebhooks],
    page: true,
    tag,
    summary: 'Send a signed test event through the webhook sender',
    query,
    form: object({ csrf }),
    answers: {
      303: 'To the webhooks page, the test in the log.',
      400: notAForm,
      403: forbidden,
      404: 'No subscription.',
    },
  },
  resendWebhookDeliveryPage: {
    method: 'POST',
    path: '/dashboard/webhooks/deliveries/{deliveryId}/resend',
    caller: 'public',
    permission: 'manageWebhooks',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem', ...sendsWebhooks],
    page: true,
    tag,
    summary: 'Send a delivery again, the same bytes',
    params: deliveryParams,
    query,
    form: object({ csrf }),
    answers: {
      303: 'To the webhooks page, the re-send in the log.',
      400: notAForm,
      403: forbidden,
      404: 'Not a delivery of the business, or no subscription.',
    },
  },
  auditLogPage: {
    method: 'GET',
    path: '/dashboard/audit',
    caller: 'public',
    permission: 'readAudit',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The audit log: who did what, when and from where',
    query: object({
      lang: optional(enumOf(['fr', 'en'])),
      action: optional(string()),
      member: optional(string()),
      from: optional(string()).register(globalRegistry, { description: 'A day, `YYYY-MM-DD`.' }),
      to: optional(string()).register(globalRegistry, { description: 'A day, `YYYY-MM-DD`, included.' }),
      after: optional(string()).register(globalRegistry, { description: 'Where the next page starts.' }),
    }),
    answers: { 200: 'One page of the log, newest first.', 303: signedOut, 403: forbidden },
  },
});
