import type { LineState } from '#shared/data/transaction-record.ts';
import type { Language } from '#shared/domain/languages.ts';
import { canonicalPaymentMethod, isProviderCode, type ProviderCode } from '#shared/domain/payment-methods.ts';
import type { SandboxBehaviour } from '#shared/providers/sandbox.ts';

/** How payers know the providers; the same in both languages. */
export const providerNames: Record<ProviderCode, string> = {
  orange: 'Orange Money',
  wave: 'Wave',
  mtn: 'MTN MoMo',
  moov: 'Moov Money',
  djamo: 'Djamo',
};

/** Other ways money moves, named as the dashboard shows them. */
const otherMethodNames: Record<Language, Record<'bank' | 'svc', string>> = {
  fr: { bank: 'Virement bancaire', svc: 'Entre points de vente' },
  en: { bank: 'Bank transfer', svc: 'Between points of sale' },
};

/**
 * A payment method as people know it, never its code: `wave` → Wave, `orange` (or `orange_money`)
 * → Orange Money, `bank` → Virement bancaire; an unknown value as it is.
 */
/** How a line ended, each end by its own word: the dashboard's lines and its export say it alike. */
export const lineStateWords: Record<Language, Record<LineState, string>> = {
  fr: {
    pending: 'En attente',
    success: 'Réussi',
    expired: 'Expiré',
    cancelled: 'Annulé',
    abandoned: 'Abandonné',
    declined: 'Refusé',
    failed: 'Échoué',
  },
  en: {
    pending: 'Pending',
    success: 'Succeeded',
    expired: 'Expired',
    cancelled: 'Cancelled',
    abandoned: 'Abandoned',
    declined: 'Declined',
    failed: 'Failed',
  },
};

export function operatorName(language: Language, method: string): string;
export function operatorName(language: Language, method: string | undefined): string | undefined;
export function operatorName(language: Language, method: string | undefined): string | undefined {
  if (!method) return method;
  const code = canonicalPaymentMethod(method);
  if (isProviderCode(code)) return providerNames[code];
  if (code === 'bank' || code === 'svc') return otherMethodNames[language][code];
  return method;
}

const fr = {
  languageName: 'Français',
  /** Read by a speaker of this language on a page in the other one: the switch's label. */
  switchTo: 'Passer en français',
  title: 'Paiement',
  payTo: 'Paiement à',
  /** The merchant's own reference of the order paid for, never to be taken for the service's. */
  orderReference: (reference: string) => `Commande du marchand\u00a0: ${reference}`,
  chooseProvider: 'Moyen de paiement',
  changeProvider: "Changer d'opérateur",
  phoneLabel: 'Numéro de téléphone mobile money',
  pay: (amount: string) => `Payer ${amount}`,
  payNote: 'Vous confirmerez le paiement auprès de votre opérateur.',
  fixErrors: 'Le paiement n’est pas parti',
  providerRequired: 'Choisissez un moyen de paiement.',
  phoneRequired: 'Saisissez votre numéro.',
  providerRefused: (provider: string) =>
    `${provider} a refusé ce paiement. Vérifiez que le numéro a bien un compte ${provider}.`,
  operatorDown: (providers: string) =>
    `${providers} ne fonctionne pas en ce moment. Payez avec un autre opérateur, ou réessayez dans quelques minutes.`,
  earlierCollection: (provider: string) =>
    `Un paiement avec ${provider} a déjà été demandé et peut encore aboutir. N’approuvez qu’un seul des deux : si les deux sont approuvés, le second vous est remboursé automatiquement.`,
  underWayTitle: (provider: string) => `Paiement ${provider} en cours`,
  checkPayment: 'Voir où en est le paiement',
  tryAnother: 'Payer autrement',
  tryAnotherHint: 'Un autre opérateur ou un autre numéro\u00a0:',
  paidTitle: 'Paiement réussi',
  paidText: (amount: string, store: string) => `Votre paiement de ${amount} à ${store} est confirmé.`,
  failedTitle: 'Échec du paiement',
  failedText: (amount: string, store: string) => `Le paiement de ${amount} à ${store} n'a pas abouti.`,
  noMoneyTaken: "Aucun montant n'a été débité.",
  backToMerchant: 'Retour à la boutique',
  receiptReference: 'Référence du paiement',
  receiptOrder: 'Commande du marchand',
  receiptDate: 'Date',
  receiptProvider: 'Opérateur',
  receiptPhone: 'Numéro',
  receiptProviderId: 'Transaction opérateur',
  dateTime: (date: string, time: string, zone: string) => `${date} à ${time} (${zone})`,
  reasons: {
    declined: 'Vous avez refusé le paiement sur votre téléphone.',
    insufficient_funds: 'Le solde du compte mobile money est insuffisant.',
    third_party_payment_provider_error: "L'opérateur a refusé le paiement.",
    collection_ceiling_exceeded: 'Le marchand ne peut pas recevoir ce paiement pour le moment.',
    E_PAYMENT_LINK_IS_INVALID: "Quelqu'un d'autre a payé ce lien de paiement entre-temps.",
    expired: 'Le délai pour payer cette demande est dépassé.',
    cancelled: 'Le marchand a annulé cette demande de paiement.',
    abandoned: 'Vous avez quitté le paiement.',
  } as Record<string, string>,
  expiredTitle: 'Demande de paiement expirée',
  cancelledTitle: 'Paiement annulé',
  attemptFailed: (reason: string) =>
    `Le paiement n'est pas passé. ${reason} Aucun montant n'a été débité. Essayez un autre opérateur ou un autre numéro.`,
  leaveHint: 'Vous ne souhaitez plus payer ?',
  unknownReason: "L'opérateur n'a pas confirmé le paiement.",
  waitingTitle: 'En attente de confirmation',
  waitingText: 'Cette page se met à jour toute seule dès que votre opérateur confirme.',
  waitingStep: {
    orange: 'Composez le #144*82# et validez le paiement avec votre code secret Orange Money.',
    wave: "Ouvrez l'application Wave et confirmez le paiement.",
    mtn: 'Acceptez la demande de paiement qui s’affiche sur votre téléphone avec votre code MoMo (sinon, composez le *133#).',
    moov: 'Acceptez la demande de paiement reçue sur votre téléphone avec votre code Moov Money (sinon, composez le *155#).',
    djamo: "Ouvrez l'application Djamo et validez le paiement.",
  } satisfies Record<ProviderCode, string>,
  waitingPhone: (phone: string) => `Demande envoyée au ${phone}.`,
  changeNumber: 'Changer de numéro',
  stillWaitingText:
    "La confirmation n'est pas encore arrivée. Vous pouvez vérifier à nouveau dans un moment ou fermer cette page\u00a0: le marchand sera informé du résultat.",
  checkAgain: 'Vérifier à nouveau',
  linkPaidTitle: 'Ce lien de paiement a déjà été payé',
  linkPaidText: 'Il ne peut plus recevoir de paiement.',
  linkInactiveTitle: "Ce lien de paiement n'est plus actif",
  linkInactiveText:
    "Le marchand l'a désactivé\u00a0: il ne peut pas recevoir de paiement. Contactez le marchand si vous pensez qu'il s'agit d'une erreur.",
  linkBusyTitle: 'Ce lien est indisponible pour le moment',
  linkBusyText:
    "Il vient d'être payé, ou quelqu'un d'autre est en train de le payer. Réessayez dans quelques minutes.",
  tryAgain: 'Réessayer',
  tryAgainBelow: 'Vous pouvez réessayer ci-dessous.',
  transactionReference: (id: string) => `Référence de la transaction\u00a0: ${id}`,
  notFoundTitle: 'Paiement introuvable',
  notFoundText: "Cette page de paiement n'existe pas. Vérifiez l'adresse reçue du marchand.",
  badRequestTitle: 'Demande invalide',
  badRequestText: "Cette page n'a pas pu traiter la demande. Revenez en arrière et réessayez.",
  serverErrorTitle: 'Un problème est survenu',
  serverErrorText: 'La page est momentanément indisponible. Réessayez dans un instant.',
  incident: (requestId: string) => `Référence de l'incident\u00a0: ${requestId}`,
  sandboxBanner: 'Mode test — aucun argent réel',
  footer: 'Partner Payments Service',
  sandboxIntro: (provider: string) =>
    `Page de validation ${provider} simulée\u00a0: rien n'est débité. Choisissez l'issue du paiement.`,
  merchant: 'Marchand',
  amount: 'Montant',
  payerPhone: 'Téléphone du payeur',
  approve: 'Approuver',
  decline: 'Refuser',
  testNumbers: 'Numéros de test',
  otherNumbers: 'Tout autre numéro valide',
  behaviours: {
    success: 'paiement réussi',
    declined: 'refusé par le payeur',
    insufficient_funds: 'solde insuffisant',
    no_callback: 'aucune confirmation (reste en attente)',
    refused: "refusé d'emblée par l'opérateur",
    duplicate_callback: 'réussi, confirmation envoyée deux fois',
  } satisfies Record<SandboxBehaviour, string>,
};

export type Messages = typeof fr;

const en: Messages = {
  languageName: 'English',
  switchTo: 'Switch to English',
  title: 'Payment',
  payTo: 'Pay to',
  orderReference: (reference) => `Merchant’s order: ${reference}`,
  chooseProvider: 'Payment method',
  changeProvider: 'Change provider',
  phoneLabel: 'Mobile-money phone number',
  pay: (amount) => `Pay ${amount}`,
  payNote: 'You will confirm the payment with your provider.',
  fixErrors: 'The payment was not sent',
  providerRequired: 'Choose a payment method.',
  phoneRequired: 'Enter your number.',
  providerRefused: (provider) =>
    `${provider} refused this payment. Check that the number has a ${provider} account.`,
  operatorDown: (providers) =>
    `${providers} is not working right now. Pay with another provider, or try again in a few minutes.`,
  earlierCollection: (provider) =>
    `A payment with ${provider} was already requested and may still go through. Approve only one of the two: if both are approved, the second is refunded to you automatically.`,
  underWayTitle: (provider) => `${provider} payment under way`,
  checkPayment: 'See how the payment is going',
  tryAnother: 'Pay another way',
  tryAnotherHint: 'Another provider or another number:',
  paidTitle: 'Payment successful',
  paidText: (amount, store) => `Your payment of ${amount} to ${store} is confirmed.`,
  failedTitle: 'Payment failed',
  failedText: (amount, store) => `The payment of ${amount} to ${store} did not go through.`,
  noMoneyTaken: 'No money was taken.',
  backToMerchant: 'Back to the shop',
  receiptReference: 'Payment reference',
  receiptOrder: 'Merchant’s order',
  receiptDate: 'Date',
  receiptProvider: 'Provider',
  receiptPhone: 'Number',
  receiptProviderId: 'Provider transaction',
  dateTime: (date, time, zone) => `${date} at ${time} (${zone})`,
  reasons: {
    declined: 'You declined the payment on your phone.',
    insufficient_funds: 'The mobile-money balance is too low.',
    third_party_payment_provider_error: 'The provider refused the payment.',
    collection_ceiling_exceeded: 'The merchant cannot receive this payment at the moment.',
    E_PAYMENT_LINK_IS_INVALID: 'Someone else paid this payment link in the meantime.',
    expired: 'The time to pay this request has run out.',
    cancelled: 'The merchant cancelled this payment request.',
    abandoned: 'You left the payment.',
  },
  expiredTitle: 'Payment request expired',
  cancelledTitle: 'Payment cancelled',
  attemptFailed: (reason) =>
    `The payment did not go through. ${reason} No money was taken. Try another provider or number.`,
  leaveHint: 'No longer want to pay?',
  unknownReason: 'The provider did not confirm the payment.',
  waitingTitle: 'Waiting for confirmation',
  waitingText: 'This page updates by itself as soon as your provider confirms.',
  waitingStep: {
    orange: 'Dial #144*82# and approve the payment with your Orange Money PIN.',
    wave: 'Open the Wave app and confirm the payment.',
    mtn: 'Accept the payment request shown on your phone with your MoMo PIN (or dial *133#).',
    moov: 'Accept the payment request on your phone with your Moov Money PIN (or dial *155#).',
    djamo: 'Open the Djamo app and approve the payment.',
  },
  waitingPhone: (phone) => `Request sent to ${phone}.`,
  changeNumber: 'Change number',
  stillWaitingText:
    'The confirmation has not arrived yet. You can check again in a moment or close this page: the merchant will be told the outcome.',
  checkAgain: 'Check again',
  linkPaidTitle: 'This payment link has already been paid',
  linkPaidText: 'It cannot receive another payment.',
  linkInactiveTitle: 'This payment link is no longer active',
  linkInactiveText:
    'The merchant has switched it off: it cannot receive payments. Contact the merchant if you think this is a mistake.',
  linkBusyTitle: 'This payment link is unavailable right now',
  linkBusyText: 'It has just been paid, or someone else is paying it. Try again in a few minutes.',
  tryAgain: 'Try again',
  tryAgainBelow: 'You can try again below.',
  transactionReference: (id) => `Transaction reference: ${id}`,
  notFoundTitle: 'Payment not found',
  notFoundText: 'This payment page does not exist. Check the address the merchant gave you.',
  badRequestTitle: 'Invalid request',
  badRequestText: 'This page could not handle the request. Go back and try again.',
  serverErrorTitle: 'Something went wrong',
  serverErrorText: 'The page is unavailable for a moment. Try again shortly.',
  incident: (requestId) => `Incident reference: ${requestId}`,
  sandboxBanner: 'Test mode — no real money',
  footer: 'Partner Payments Service',
  sandboxIntro: (provider) =>
    `A stand-in for the ${provider} approval page: nothing is charged. Choose how the payment ends.`,
  merchant: 'Merchant',
  amount: 'Amount',
  payerPhone: "Payer's phone",
  approve: 'Approve',
  decline: 'Decline',
  testNumbers: 'Test phone numbers',
  otherNumbers: 'Any other valid number',
  behaviours: {
    success: 'payment succeeds',
    declined: 'declined by the payer',
    insufficient_funds: 'insufficient funds',
    no_callback: 'no confirmation (stays pending)',
    refused: 'refused at once by the provider',
    duplicate_callback: 'succeeds, confirmation sent twice',
  },
};

export const messages: Record<Language, Messages> = { fr, en };
