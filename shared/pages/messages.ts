import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import type { Language } from '#shared/pages/language.ts';
import type { SandboxBehaviour } from '#shared/providers/sandbox.ts';

/** How payers know the providers; the same in both languages. */
export const providerNames: Record<ProviderCode, string> = {
  orange: 'Orange Money',
  wave: 'Wave',
  mtn: 'MTN MoMo',
  moov: 'Moov Money',
  djamo: 'Djamo',
};

const fr = {
  languageName: 'Français',
  /** Read by a speaker of this language on a page in the other one: the switch's label. */
  switchTo: 'Passer en français',
  title: 'Paiement',
  payTo: 'Paiement à',
  reference: (reference: string) => `Référence\u00a0: ${reference}`,
  chooseProvider: 'Choisissez votre moyen de paiement',
  phoneLabel: 'Numéro de téléphone mobile money',
  phoneHint: 'Commence par +225, suivi des 10 chiffres du numéro.',
  pay: (amount: string) => `Payer ${amount}`,
  payNote: 'Vous confirmerez le paiement sur la page de votre opérateur.',
  providerRequired: 'Choisissez un moyen de paiement.',
  phoneInvalid: 'Entrez un numéro ivoirien : +225 suivi de 10 chiffres, par exemple +225 07 00 00 00 01.',
  providerRefused: (provider: string) =>
    `${provider} a refusé ce paiement. Vérifiez que le numéro a bien un compte ${provider}.`,
  paidTitle: 'Paiement réussi',
  paidText: (amount: string, store: string) => `Votre paiement de ${amount} à ${store} est confirmé.`,
  failedTitle: 'Paiement échoué',
  failedText: (amount: string, store: string) => `Le paiement de ${amount} à ${store} n'a pas abouti.`,
  noMoneyTaken: "Aucun montant n'a été débité.",
  backToMerchant: 'Retourner chez le marchand',
  reasons: {
    declined: 'Le paiement a été refusé sur le téléphone.',
    insufficient_funds: 'Le solde du compte mobile money est insuffisant.',
    third_party_payment_provider_error: "L'opérateur a refusé le paiement.",
    collection_ceiling_exceeded: 'Le marchand ne peut pas recevoir ce paiement pour le moment.',
  } as Record<string, string>,
  unknownReason: "L'opérateur n'a pas confirmé le paiement.",
  waitingTitle: 'En attente de confirmation',
  waitingText:
    'Validez le paiement sur votre téléphone si votre opérateur vous le demande. Cette page se met à jour toute seule.',
  stillWaitingText:
    "La confirmation n'est pas encore arrivée. Vous pouvez vérifier à nouveau dans un moment ou fermer cette page : le marchand sera informé du résultat.",
  checkAgain: 'Vérifier à nouveau',
  notFoundTitle: 'Paiement introuvable',
  notFoundText: "Ce lien de paiement n'existe pas. Vérifiez le lien reçu du marchand.",
  badRequestTitle: 'Demande invalide',
  badRequestText: "Cette page n'a pas pu traiter la demande. Revenez en arrière et réessayez.",
  serverErrorTitle: 'Un problème est survenu',
  serverErrorText: 'La page est momentanément indisponible. Réessayez dans un instant.',
  incident: (requestId: string) => `Référence de l'incident\u00a0: ${requestId}`,
  sandboxBanner: 'Sandbox — aucun argent réel',
  sandboxIntro: (provider: string) =>
    `Page de validation ${provider} simulée : rien n'est débité. Choisissez l'issue du paiement.`,
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
  reference: (reference) => `Reference: ${reference}`,
  chooseProvider: 'Choose how to pay',
  phoneLabel: 'Mobile-money phone number',
  phoneHint: 'Starts with +225, then the 10 digits of the number.',
  pay: (amount) => `Pay ${amount}`,
  payNote: "You will confirm the payment on your provider's page.",
  providerRequired: 'Choose a payment method.',
  phoneInvalid: 'Enter an Ivorian number: +225 followed by 10 digits, for example +225 07 00 00 00 01.',
  providerRefused: (provider) =>
    `${provider} refused this payment. Check that the number has a ${provider} account.`,
  paidTitle: 'Payment successful',
  paidText: (amount, store) => `Your payment of ${amount} to ${store} is confirmed.`,
  failedTitle: 'Payment failed',
  failedText: (amount, store) => `The payment of ${amount} to ${store} did not go through.`,
  noMoneyTaken: 'No money was taken.',
  backToMerchant: 'Return to the merchant',
  reasons: {
    declined: 'The payment was declined on the phone.',
    insufficient_funds: 'The mobile-money balance is too low.',
    third_party_payment_provider_error: 'The provider refused the payment.',
    collection_ceiling_exceeded: 'The merchant cannot receive this payment at the moment.',
  },
  unknownReason: 'The provider did not confirm the payment.',
  waitingTitle: 'Waiting for confirmation',
  waitingText: 'Approve the payment on your phone if your provider asks you to. This page updates by itself.',
  stillWaitingText:
    'The confirmation has not arrived yet. You can check again in a moment or close this page: the merchant will be told the outcome.',
  checkAgain: 'Check again',
  notFoundTitle: 'Payment not found',
  notFoundText: 'This payment link does not exist. Check the link the merchant gave you.',
  badRequestTitle: 'Invalid request',
  badRequestText: 'This page could not handle the request. Go back and try again.',
  serverErrorTitle: 'Something went wrong',
  serverErrorText: 'The page is unavailable for a moment. Try again shortly.',
  incident: (requestId) => `Incident reference: ${requestId}`,
  sandboxBanner: 'Sandbox — no real money',
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
