import type { EndpointName } from '#shared/api/all-endpoints.ts';

/**
 * What an integrator must know of an endpoint beyond its summary and schemas, in Markdown. Only the
 * reference's generator imports this, so no function's bundle carries the text.
 */

const collectionCallbackDescription =
  'Where a mobile-money provider tells the service how a collection ended, signed with the key it ' +
  'shares with the service. Only a verified callback changes anything; a repeated one changes nothing. ' +
  'A successful collection that completed nothing (the payer paid the request a second time, with ' +
  'another provider) is refunded to the payer (`orphan_collection`); a callback that outruns the ' +
  'recording of its collection’s start is answered 409, to be sent again.';

const payoutCallbackDescription =
  'Where a provider (or the bank, `bank`) tells the service how a payout (or a refund to a payer) ended, ' +
  'signed with the key it shares with the service. Only a verified callback changes anything; a repeated ' +
  'one changes nothing.';

const forServiceProviders =
  'Any key of a service provider; another key is answered 403 `forbidden_action`. A merchant not linked ' +
  'to the caller is 404 `business_not_found`, as an unknown id is.';

export const endpointDescriptions: { readonly [Name in EndpointName]?: string } = {
  listStores: 'The stores of the caller’s business; a key scoped to one store sees that store alone.',
  getStoreBalance:
    'What the store may move out now: the sum over its wallets of total less blocked, in cents.',
  createPaymentRequest:
    'Collects an amount for a store: `redirect` sends the payer to `redirectUrl`, `soundbox` shows a QR ' +
    'code on a terminal. The request stays `pending` until the provider answers; poll it, or receive ' +
    'the `TRANSACTION_COMPLETED` webhook. With `escrow` (platform keys only; another key gets 403 ' +
    '`forbidden_action`), the payment is held in an escrow (`escrowId`) and `ESCROW_HELD` is sent instead. ' +
    'It may be paid until `expiresAt` (30 minutes by default, at most 7 days): past it, unpaid, it is ' +
    '`error` / `expired` in every answer, and a success the provider reports later is refunded to the payer. ' +
    'On the hosted page a declined attempt keeps it `pending` for the payer to try again. ' +
    '`payerPhone` is a mobile number of one of the eight UEMOA countries; a country the ' +
    '`paymentMethod` does not serve (Wave in Togo) is 422 rule `provider_country` naming it.',
  cancelPaymentRequest:
    'Ends a pending request: `error` / `cancelled`, with its `TRANSACTION_COMPLETED` (status `error`). ' +
    'Cancelling it again answers the same. A request paid, expired or otherwise ended is 409 ' +
    '`payment_request_not_cancellable`. A payment the payer was still approving at the provider is ' +
    'refunded to them if it goes through.',
  createPaymentLink:
    'A page at `link` where customers pay the amount. A single-use link closes once one payment ' +
    'through it completes. With `escrow` (platform keys only; another key gets 403 `forbidden_action`), ' +
    'each payment through it is held in an escrow of its own.',
  listPaymentLinks:
    'The business’s links, newest first (a key scoped to a store: that store’s), in the transaction ' +
    'list’s envelope; `storeId` and `active` filter, `page` and `limit` page.',
  deactivatePaymentLink:
    'Switches the link off: `active` and `canReceivePayments` turn false, its page says it is no longer ' +
    'active, and a payment attempt through it is refused with `E_PAYMENT_LINK_IS_INVALID`. An attempt ' +
    'already under way at the provider ends as it would have. Switching off a link already off answers it again.',
  activatePaymentLink:
    'Switches the link on again. A single-use link that was paid cannot be: 409 `payment_link_already_used`. ' +
    'Switching on a link already on answers it again.',
  paySandboxPaymentLink: 'Plays a customer paying the link; the phone number chooses the outcome.',
  listTransactions:
    'Completed payments (transfers and escrow releases will join them), newest first. Page 1 fixes ' +
    'the listing’s instant (`asOf`); the next pages of the same query reuse it for ten minutes, so a ' +
    'payment arriving while you page neither repeats nor hides another.',
  receiveProviderCallback: collectionCallbackDescription,
  receiveProviderCallbackPut: `MTN MoMo calls back with PUT as often as POST: the same as the POST. ${collectionCallbackDescription}`,
  receivePawapayCallback:
    'pawaPay’s callbacks, at the URLs its dashboard is given for deposits, payouts and refunds. Where the ' +
    'stage holds pawaPay’s public key, the RFC 9421 signature (`Signature`, `Signature-Input`, ' +
    '`Content-Digest`) must hold; whatever the signature, the callback moves money only when pawaPay’s ' +
    'status check for that id gives the same final status and amount. Anything else answers 401 with nothing written.',
  receiveSmileIdCallback:
    'Smile ID’s Enhanced KYC result for an owner’s identity check (job id = the verification’s id). Its ' +
    '`signature` (HMAC-SHA256 of `timestamp` + partner id + "sid_request" with the API key) must hold and ' +
    '`timestamp` be within the hour; the result believed is the job status asked of Smile ID. Anything else answers 401.',
  approveSandboxPaymentRequest:
    'Plays the payer approving in their app, through the provider’s signed callback: the phone ' +
    'number chooses the outcome (`+2250700000002` declined, `+2250700000003` insufficient funds, ...; ' +
    'the same endings in every UEMOA country: `+221770000002` is declined too).',
  listWebhookSubscriptions: forServiceProviders,
  createWebhookSubscription: `${forServiceProviders} A business has at most one subscription: a second create answers 409.`,
  deleteWebhookSubscription: `${forServiceProviders} An unknown subscription answers 404 \`{"message": "Webhook subscription not found"}\`.`,
  listWebhookDeliveries: 'The delivery log of the last 30 days, newest first, with every attempt.',
  resendWebhookDelivery:
    'Sends the same body (same bytes, same `id`) as a new delivery to the business’s subscription as ' +
    'it is now. Without a subscription: 404 `{"message": "Webhook subscription not found"}`.',
  listContacts: 'The beneficiaries of the caller’s business, for transfers; deleted ones are gone.',
  createContact:
    'A beneficiary of transfers: a mobile-money number (`identifier.number`, a mobile number of a ' +
    'UEMOA country where the provider takes payments, stored in E.164; an Ivorian national form is ' +
    'accepted) or a bank account (all six fields). Creating the ' +
    'same beneficiary again answers the existing contact.',
  deleteContact: 'Transfers already made to it keep it as their beneficiary.',
  createTransfer:
    'Pays a beneficiary from a store’s available balance: a contact (`contactId`); a new beneficiary ' +
    '(`name`, `paymentMethod`, `identifier`, saved as a contact); or another store of the business ' +
    '(`paymentMethod: "svc"`, `destinationStoreId`). The amount and fees are reserved at once; a payout ' +
    'stays `pending` until the provider answers, then the `TRANSACTION_COMPLETED` webhook (with ' +
    '`transactionType: "transfer"`) tells how it ended. A transfer between stores completes at once. ' +
    '`beneficiary` is whom it pays (the number in E.164, a bank account, or the receiving store’s name ' +
    'for `svc`), `beneficiaryName` the name.',
  createRefund:
    'Gives a paid payment request back to its payer, whole (by default: all that remains refundable) ' +
    'or in part, through the provider that collected it. Answers **201** with the refund, `pending` ' +
    'until the provider answers. Refunds of one payment never sum past it, even sent at the same time: ' +
    'more than what remains answers 422 on `amountCents`. The amount is reserved at once on the ' +
    'store’s available balance (422 `insufficient_balance` when it does not cover it) and taken out when ' +
    'the payer is paid; a failed refund gives it back and its amount is refundable again. A payment ' +
    'still held in escrow is refunded through its escrow (409 `payment_request_not_refundable`). The ' +
    'payment’s fee is not given back, and a refund costs no fee unless the stage prices it (`fees`). ' +
    '`REFUND_COMPLETED` tells how it ended, to subscriptions that list it.',
  listRefunds:
    'Newest first; of one payment (`paymentRequestId`), one store (`storeId`) or the whole business. A ' +
    'key scoped to a store lists that store whatever it asks.',
  completeSandboxRefund:
    'Plays the provider paying back the payer of a refund it has not settled by itself (a payer number ' +
    'ending in `04`), through its signed callback.',
  receivePayoutCallback: payoutCallbackDescription,
  receivePayoutCallbackPut: `MTN MoMo calls back with PUT as often as POST: the same as the POST. ${payoutCallbackDescription}`,
  completeSandboxTransfer:
    'Plays the provider paying the beneficiary of a payout it has not settled by itself (a number ' +
    'ending in `04`), through its signed callback.',
  sendMessage:
    'Takes the message’s segments from the SMS balance in the same write that records it, then hands ' +
    'it to the carrier; its `status` follows (`sent`, `delivered`, or `failed` with its segments given back).',
  listMessages: 'Newest first.',
  getMessageAccount: 'The business’s balances of messages to send; created with zero balances on first read.',
  listEscrows:
    'The business’s escrows, newest first, filtered by `status` and `storeId`. A store-scoped platform ' +
    'key sees its store’s only. Platform keys only.',
  releaseEscrow:
    'Moves what the escrow holds (the payment less its fee) to the store’s operating wallet, lists one ' +
    'transaction of type `escrow` and sends `ESCROW_RELEASED`. Only a `held` escrow: a second release ' +
    'answers 409 `escrow_already_released`, a pending or cancelled one 409 `escrow_not_held`. Platform keys only.',
  refundEscrow:
    'Pays the whole payment (its fee included) back to the payer’s number through the provider’s ' +
    'payout, as a transfer: the escrow is `refunding` until the payout ends, then `refunded` ' +
    '(`ESCROW_REFUNDED`), or `held` again when the payout fails. Platform keys only.',
  openApiDocument:
    'OpenAPI 3.1, generated from the schemas the service validates with; `servers` names the host ' +
    'that served it. Production leaves out the sandbox operations.',
  listActivities:
    'The categories and activities a business may declare at onboarding (`business.activityId`), ' +
    'named in the `Accept-Language` language (French by default, English) and sorted by name.',
  onboardBusiness:
    'Creates the owner (a user, by phone), their business with its first store, and the link to the ' +
    'caller, in one write. The business has API access at once and verification level 0 until a ' +
    'compliance verification is approved. A phone already registered is 409 `user_already_exists`: ' +
    'ask that owner’s consent with a link request instead.',
  detachBusinessLink: `${forServiceProviders} Ends the link and revokes the keys the caller made for the merchant, in the same write.`,
  createMerchantApiKey:
    `${forServiceProviders} Only for a merchant the caller onboarded. Not replayed: a retry makes a ` +
    'second key, so the secret is never stored.',
  createLinkRequests:
    'One pending request per business the phone’s user owns, each with a one-time code sent by SMS ' +
    'with the consent page’s address; the caller gets a SERVICE_PROVIDER_LINK_REQUEST event as each ' +
    'is made and answered. Refused as a whole: unknown phone 404 `user_not_found`, nothing owned 409 ' +
    '`no_owned_business`, a business already linked 409 `already_linked` (its id in `extras`).',
  getLinkRequest: 'Only the provider that made it sees it. A request past `expiresAt` is answered `expired`.',
  approveSandboxLinkRequest:
    'Without the code, for the provider’s own tests; the event follows as on the page.',
  createComplianceVerification:
    `${forServiceProviders} Answers the merchant’s open verification of this type if there is one. ` +
    'The owner gives their identity at `url`; approval raises the business’s verification level, ' +
    'and the caller gets a COMPLIANCE_VERIFICATION_COMPLETED event.',
  submitSandboxVerificationPage:
    'An identity document number ending in `0000` is rejected; any other is approved.',
};
