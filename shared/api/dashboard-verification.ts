import { object, string } from 'zod/mini';
import { csrf, dashboardQuery, forbidden } from '#shared/api/dashboard.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { text } from '#shared/api/form-fields.ts';

/**
 * The owner's identity check on the dashboard (issue 25, item 5): the first verification level,
 * which opens API access and lifts the level-0 collection ceiling. A compliance verification's
 * `url` is its page here; only the business's owner opens it (the `verify` action). The identity
 * decision is the sandbox's (by test values), or Smile ID's where the stage's identity vendor is
 * Smile ID (production's always is): the pages exist on every stage.
 */
const tag = 'Dashboard';
const notAForm = 'A body that is not a form.';
const verificationPathParams = object({ id: string() });
const refused = 'The acting member is not the owner (`forbidden_action`): nothing changes.';

export const dashboardVerificationEndpoints = /* @__PURE__ */ endpointsIn('dashboard', {
  startDashboardVerification: {
    method: 'POST',
    path: '/dashboard/verification',
    caller: 'public',
    permission: 'verify',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Start the identity check of the business acted for (or resume its open one)',
    query: dashboardQuery,
    form: object({ csrf }),
    answers: {
      400: notAForm,
      303: 'To the verification’s page.',
      403: `${forbidden} Or: ${refused}`,
    },
  },
  dashboardVerificationPage: {
    method: 'GET',
    path: '/dashboard/verification/{id}',
    caller: 'public',
    permission: 'verify',
    // Query: the business's store, whose country says which check Smile ID runs.
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'A compliance verification’s page: the identity form while pending, the outcome afterwards',
    params: verificationPathParams,
    query: dashboardQuery,
    answers: {
      200: 'The form, or the outcome.',
      303: 'No session: to the sign-in page; no business chosen: to the businesses page.',
      403: refused,
      404: 'Unknown id, or another business’s verification.',
    },
  },
  submitDashboardVerificationPage: {
    method: 'POST',
    path: '/dashboard/verification/{id}',
    caller: 'public',
    permission: 'verify',
    // Query: the business's store, whose country is the ID's Smile ID looks up; the secret:
    // Smile ID's key, where it checks identities.
    access: ['table:DeleteItem', 'table:GetItem', 'table:Query', 'table:UpdateItem', 'secret:identity'],
    page: true,
    tag,
    summary: 'Submit the identity form: approved raises the business to level 1 and opens its API access',
    params: verificationPathParams,
    query: dashboardQuery,
    form: object({
      csrf,
      firstName: text(),
      lastName: text(),
      idNumber: text(),
      'dateOfBirth-day': text(),
      'dateOfBirth-month': text(),
      'dateOfBirth-year': text(),
    }),
    answers: {
      200: 'The outcome, or (Smile ID) the check under way, its result to come by callback.',
      303: 'To the provider’s `callbackUrl`, with `verificationId` and `status` added to its query.',
      400: 'The form again, with the missing fields.',
      403: `${forbidden} Or: ${refused}`,
      404: 'Unknown id, or another business’s verification.',
      422: 'Smile ID looks up no ID number of the business’s country: the form again, saying so.',
      503: 'Smile ID could not be reached: the form again, nothing sent.',
    },
  },
  startDashboardDocumentCheck: {
    method: 'POST',
    path: '/dashboard/verification/{id}/document_check',
    caller: 'public',
    permission: 'verify',
    // Query: the business's store (its country); the secret: Smile ID's key, which signs the
    // web token's request.
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem', 'secret:identity'],
    page: true,
    tag,
    summary:
      'Start Smile ID’s document + selfie check (its web integration) where it looks up no ID number of the business’s country',
    params: verificationPathParams,
    query: dashboardQuery,
    form: object({ csrf }),
    answers: {
      200: 'The capture page: Smile ID’s web script with a web token for a job of its own; its result comes by callback.',
      303: 'The verification is no longer pending: to its page.',
      400: notAForm,
      403: `${forbidden} Or: ${refused}`,
      404: 'Unknown id, or another business’s verification.',
      422: 'Not this owner’s check on this stage (Smile ID looks its country up by number, or is not the vendor), or Smile ID gave no token: the page again, saying so.',
      503: 'Smile ID could not be reached: the page again, nothing started.',
    },
  },
});
