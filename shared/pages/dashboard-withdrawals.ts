import type { Transfer } from '#shared/data/transfer.ts';
import type { Language } from '#shared/domain/languages.ts';
import { everyProviderByUse } from '#shared/domain/operator-countries.ts';
import { type ProviderCode, providerCodes } from '#shared/domain/payment-methods.ts';
import type { PayoutAccount } from '#shared/domain/payout-accounts.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import type { AutomaticSettlementProblem } from '#shared/operations/automatic-settlement.ts';
import type { StepUpStart, TransferProblem } from '#shared/operations/dashboard-transfers.ts';
import type { WithdrawalsOverview } from '#shared/operations/dashboard-withdrawals.ts';
import {
  type CheckedPayoutAccount,
  type PayoutAccountInput,
  type PayoutAccountProblem,
  withdrawableCents,
} from '#shared/operations/payout-accounts.ts';
import { errorSummary, field } from '#shared/pages/components.ts';
import { csrfField, readableTime } from '#shared/pages/dashboard-chrome.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { problemMessages } from '#shared/pages/dashboard-transfers.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { deBefore, formatAmount, maskPhone, plural } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { providerNames } from '#shared/pages/messages.ts';
import { phoneCountryOf, phoneExamples, phoneField } from '#shared/pages/phone-country.ts';

/**
 * The withdrawals page (issue 34, item 3): withdraw a store's money to one of the business's own
 * accounts (the send-money check and confirm steps follow), the accounts with the time each
 * becomes usable, and the owner's form that adds one with a fresh SMS code.
 */
const text = {
  fr: {
    title: 'Retirer de l’argent',
    intro: 'Vers vos propres comptes : un numéro mobile money ou un compte bancaire à votre nom.',
    sent: (status: string) => `Retrait enregistré : ${status}.`,
    statuses: { pending: 'en cours', success: 'réussi', error: 'échoué' } as Record<string, string>,
    added: (when: string) =>
      `Compte ajouté. Il pourra recevoir des retraits à partir du ${when}. Les propriétaires ont été prévenus par SMS.`,
    removed: 'Compte retiré.',
    withdraw: 'Retirer',
    store: 'Depuis le point de vente',
    available: (amount: string) => `disponible : ${amount}`,
    account: 'Vers le compte',
    chooseAccount: 'Choisissez un compte',
    amount: 'Montant (F CFA)',
    amountHint: 'Laissez vide pour tout retirer, frais déduits.',
    most: (most: string, available: string) => `Au plus ${most} (disponible : ${available}).`,
    continue: 'Continuer',
    noUsable: 'Aucun compte ne peut encore recevoir de retrait.',
    accounts: 'Vos comptes de retrait',
    none: 'Aucun compte enregistré.',
    usable: 'Utilisable',
    usableFrom: (when: string) => `Utilisable à partir du ${when}`,
    remove: (label: string) => `Retirer le compte ${label}`,
    removeTitle: 'Retirer ce compte ?',
    removeConfirm: 'Oui, retirer ce compte',
    removeBody: 'Plus aucun retrait ne pourra y être envoyé. Les retraits déjà partis ne changent pas.',
    cancel: 'Annuler',
    addTitle: 'Ajouter un compte',
    addIntro: (hours: string) =>
      `Un code vous est envoyé par SMS pour confirmer. Le compte ne reçoit des retraits qu’après ${hours}, et tous les propriétaires sont prévenus par SMS.`,
    kind: 'Type de compte',
    mobile: 'Mobile money',
    bank: 'Compte bancaire',
    holder: 'Titulaire du compte',
    operator: 'Opérateur',
    chooseOperator: 'Choisissez l’opérateur',
    number: 'Numéro',
    bankName: 'Banque',
    iban: 'IBAN',
    ibanHint: '28 caractères, par exemple SN08 SN010 01522 000123456789 85',
    add: 'Continuer',
    codeTitle: 'Confirmez le nouveau compte',
    code: (phone: string) => `Code reçu par SMS au ${phone}`,
    codeHint: '6 chiffres, valable 5 minutes',
    confirmAdd: 'Ajouter le compte',
    codeWrong: (left: number) =>
      `Ce code n’est pas le bon. Il reste ${plural('fr', left, { one: '# essai', other: '# essais' })}.`,
    codeMalformed: 'Saisissez les 6 chiffres du code.',
    codeEnded: 'Ce code a expiré ou a déjà servi. Recommencez pour en recevoir un nouveau.',
    limited: 'Trop de codes envoyés : réessayez dans 15 minutes.',
    noPhone: 'Aucun téléphone n’est enregistré pour vous : impossible d’envoyer le code.',
    errorSummary: 'Il y a un problème',
    automaticTitle: 'Versement automatique',
    automaticIntro:
      'Chaque jour à l’heure choisie (heure UTC), ce qu’un point de vente a de disponible au-delà du montant gardé part vers le compte choisi, frais déduits. Un seul versement par jour.',
    automaticOn: (hour: string, account: string, keep: string) =>
      `Chaque jour à ${hour} UTC vers ${account}, en gardant ${keep}.`,
    automaticOff: 'Désactivé.',
    automaticNone: 'Aucun versement automatique.',
    automaticAccountGone: 'le compte retiré (aucun versement)',
    automaticNeedsAccount: 'Ajoutez d’abord un compte de retrait pour choisir un versement automatique.',
    automaticSaved: 'Versement automatique enregistré.',
    automaticTurnedOff: 'Versement automatique désactivé.',
    automaticHour: 'Heure (UTC)',
    automaticKeep: 'Montant à garder (F CFA)',
    automaticKeepHint: 'Laissez vide pour tout verser.',
    automaticSave: 'Enregistrer le versement automatique',
    automaticTurnOff: (store: string) => `Désactiver le versement automatique ${deBefore(store)}`,
    turnOff: 'Désactiver',
    automaticProblems: {
      storeId: 'Choisissez le point de vente.',
      payoutAccountId: 'Choisissez le compte.',
      hour: 'Choisissez une heure entre 0 et 23.',
      keepFormat: 'Saisissez un montant en francs, par exemple 50 000.',
      keepMax: 'Ce montant est trop grand.',
    },
    problems: {
      holder: 'Saisissez le nom du titulaire.',
      paymentMethod: 'Choisissez l’opérateur.',
      number: 'Saisissez le numéro.',
      numberFormat: 'Saisissez un numéro de mobile de la zone.',
      bankName: 'Saisissez le nom de la banque.',
      iban: 'Saisissez l’IBAN.',
      ibanFormat:
        'Cet IBAN n’est pas valide : vérifiez les 28 caractères (pays, clé, banque, agence, compte, clé RIB).',
      providerCountry: 'Cet opérateur ne sert pas le pays de ce numéro.',
      max: 'Ce texte est trop long.',
      kind: 'Choisissez le type de compte.',
    },
  },
  en: {
    title: 'Withdraw money',
    intro: 'To your own accounts: a mobile-money number or a bank account in your name.',
    sent: (status: string) => `Withdrawal recorded: ${status}.`,
    statuses: { pending: 'in progress', success: 'succeeded', error: 'failed' } as Record<string, string>,
    added: (when: string) =>
      `Account added. It can receive withdrawals from ${when}. The owners were told by SMS.`,
    removed: 'Account removed.',
    withdraw: 'Withdraw',
    store: 'From the point of sale',
    available: (amount: string) => `available: ${amount}`,
    account: 'To the account',
    chooseAccount: 'Choose an account',
    amount: 'Amount (F CFA)',
    amountHint: 'Leave empty to withdraw everything, less the fee.',
    most: (most: string, available: string) => `At most ${most} (available: ${available}).`,
    continue: 'Continue',
    noUsable: 'No account can receive a withdrawal yet.',
    accounts: 'Your payout accounts',
    none: 'No account yet.',
    usable: 'Usable',
    usableFrom: (when: string) => `Usable from ${when}`,
    remove: (label: string) => `Remove the account ${label}`,
    removeTitle: 'Remove this account?',
    removeConfirm: 'Yes, remove this account',
    removeBody: 'No withdrawal can go there any more. Withdrawals already sent do not change.',
    cancel: 'Cancel',
    addTitle: 'Add an account',
    addIntro: (hours: string) =>
      `A code is sent to you by SMS to confirm. The account receives withdrawals only after ${hours}, and every owner is told by SMS.`,
    kind: 'Kind of account',
    mobile: 'Mobile money',
    bank: 'Bank account',
    holder: 'Account holder',
    operator: 'Operator',
    chooseOperator: 'Choose the operator',
    number: 'Number',
    bankName: 'Bank',
    iban: 'IBAN',
    ibanHint: '28 characters, for example SN08 SN010 01522 000123456789 85',
    add: 'Continue',
    codeTitle: 'Confirm the new account',
    code: (phone: string) => `Code sent by SMS to ${phone}`,
    codeHint: '6 digits, valid for 5 minutes',
    confirmAdd: 'Add the account',
    codeWrong: (left: number) =>
      `That code is not right. ${plural('en', left, { one: '# try', other: '# tries' })} left.`,
    codeMalformed: 'Enter the 6 digits of the code.',
    codeEnded: 'This code has expired or was used. Start again to get a new one.',
    limited: 'Too many codes sent: try again in 15 minutes.',
    noPhone: 'No phone is recorded for you: the code cannot be sent.',
    errorSummary: 'There is a problem',
    automaticTitle: 'Automatic settlement',
    automaticIntro:
      'Every day at the chosen hour (UTC), what a point of sale has available above the amount it keeps goes to the chosen account, less the fee. One settlement a day.',
    automaticOn: (hour: string, account: string, keep: string) =>
      `Every day at ${hour} UTC to ${account}, keeping ${keep}.`,
    automaticOff: 'Off.',
    automaticNone: 'No automatic settlement.',
    automaticAccountGone: 'the removed account (nothing is paid)',
    automaticNeedsAccount: 'Add a payout account first to choose an automatic settlement.',
    automaticSaved: 'Automatic settlement saved.',
    automaticTurnedOff: 'Automatic settlement turned off.',
    automaticHour: 'Hour (UTC)',
    automaticKeep: 'Amount to keep (F CFA)',
    automaticKeepHint: 'Leave empty to pay out everything.',
    automaticSave: 'Save the automatic settlement',
    automaticTurnOff: (store: string) => `Turn off the automatic settlement of ${store}`,
    turnOff: 'Turn off',
    automaticProblems: {
      storeId: 'Choose the point of sale.',
      payoutAccountId: 'Choose the account.',
      hour: 'Choose an hour from 0 to 23.',
      keepFormat: 'Enter an amount in francs, for example 50 000.',
      keepMax: 'This amount is too large.',
    },
    problems: {
      holder: 'Enter the holder’s name.',
      paymentMethod: 'Choose the operator.',
      number: 'Enter the number.',
      numberFormat: 'Enter a mobile number of the zone.',
      bankName: 'Enter the bank’s name.',
      iban: 'Enter the IBAN.',
      ibanFormat:
        'This IBAN is not valid: check its 28 characters (country, check digits, bank, agency, account, RIB key).',
      providerCountry: 'This operator does not serve the number’s country.',
      max: 'This text is too long.',
      kind: 'Choose the kind of account.',
    },
  },
} satisfies Record<Language, unknown>;

type Context = DashboardPageContext & { csrfToken: string };

const page = (context: DashboardPageContext, title: string, content: SafeHtml) =>
  dashboardTemplate(context, {
    section: 'withdrawals',
    title,
    pageUrl: `${context.baseUrl}/dashboard/withdrawals`,
    content: html`<div class="panel">
${content}
</div>`,
  });

const accountText = (account: Pick<PayoutAccount, 'identifier' | 'paymentMethod'> & { label: string }) =>
  'number' in account.identifier
    ? `${providerNames[account.paymentMethod as ProviderCode] ?? account.paymentMethod} · ${maskPhone(account.identifier.number)}`
    : account.label;

export interface WithdrawalsPageState {
  /** The withdrawal just sent. */
  sent?: Transfer | undefined;
  /** An account just added, or removed. */
  added?: PayoutAccount | undefined;
  removed?: boolean;
  withdrawal?: { form: Readonly<Record<string, string | undefined>>; problems: readonly TransferProblem[] };
  account?: { form: Readonly<Record<string, string | undefined>>; problems: readonly PayoutAccountProblem[] };
  /** The automatic settlement's form sent back with its problems, or its notice once set. */
  automatic?: {
    form: Readonly<Record<string, string | undefined>>;
    problems: readonly AutomaticSettlementProblem[];
  };
  automaticNotice?: 'on' | 'off' | undefined;
  coolingHours: number;
}

/** The page: the withdraw form first (what people come for), the accounts, then the owner's add form. */
export function withdrawalsPage(
  context: Context,
  overview: WithdrawalsOverview,
  state: WithdrawalsPageState,
): string {
  const t = text[context.language];
  const usable = overview.accounts.filter((account) => account.usable);
  const notice = state.sent
    ? t.sent(t.statuses[state.sent.status] ?? state.sent.status)
    : state.added
      ? t.added(readableTime(state.added.usableFrom, context))
      : state.removed
        ? t.removed
        : state.automaticNotice === 'on'
          ? t.automaticSaved
          : state.automaticNotice === 'off'
            ? t.automaticTurnedOff
            : undefined;
  return page(
    context,
    t.title,
    html`<h1>${t.title}</h1>
${notice && html`<p class="notice" role="status" data-testid="withdrawals-notice">${notice}</p>`}
${
  overview.canWithdraw &&
  (usable.length > 0
    ? withdrawForm(context, overview, usable, state)
    : html`${errorSummary(t.errorSummary, problemMessages(context.language, state.withdrawal?.problems ?? []))}<p id="payoutAccountId">${t.noUsable}</p>`)
}
<h2>${t.accounts}</h2>
<p class="hint">${t.intro}</p>
${
  overview.accounts.length === 0
    ? html`<p>${t.none}</p>`
    : html`<ul data-testid="payout-accounts">${overview.accounts.map(
        (
          account,
        ) => html`<li data-payout-account-id="${account.id}"><strong>${account.holder}</strong> · <span class="nowrap">${accountText(account)}</span><br>
<span class="muted" data-usable="${String(account.usable)}">${account.usable ? t.usable : t.usableFrom(readableTime(account.usableFrom, context))}</span>
${
  overview.canManageAccounts &&
  html`<form method="post" action="${dashboardUrl(context, '/withdrawals/accounts')}" class="inline">
${csrfField(context.csrfToken)}<input type="hidden" name="action" value="remove"><input type="hidden" name="id" value="${account.id}">
<button class="button button-secondary" type="submit" aria-label="${t.remove(account.label)}">${context.language === 'fr' ? 'Retirer' : 'Remove'}</button>
</form>`
}</li>`,
      )}</ul>`
}
${automaticSection(context, overview, state)}
${overview.canManageAccounts && addAccountForm(context, state, overview.stores[0]?.store.country)}`,
  );
}

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/**
 * Each store's automatic settlement, and the owner's form that sets one (store, account, hour,
 * amount kept) or turns it off. Its fields' ids start with `auto-`: the withdraw form above has
 * its own `storeId` and `payoutAccountId`.
 */
function automaticSection(
  context: Context,
  overview: WithdrawalsOverview,
  state: WithdrawalsPageState,
): SafeHtml {
  const t = text[context.language];
  const form = state.automatic?.form ?? {};
  const p = t.automaticProblems;
  const errors = (state.automatic?.problems ?? []).map((problem) => ({
    field: problem.field === 'keep' ? 'keep' : problem.field === 'hour' ? 'hour' : `auto-${problem.field}`,
    message:
      problem.field === 'keep' ? (problem.rule === 'max' ? p.keepMax : p.keepFormat) : p[problem.field],
  }));
  const errorOf = (name: string) => errors.find((error) => error.field === name)?.message;
  const accountOf = (id: string) => overview.accounts.find((account) => account.id === id);
  const settings = overview.stores.flatMap(({ store }) => {
    const setting = overview.automatic.get(store.id);
    return setting ? [{ store, setting }] : [];
  });
  const chosenStore = form.storeId ?? overview.stores[0]?.store.id ?? '';
  const current = overview.automatic.get(chosenStore);
  const chosenAccount = form.payoutAccountId ?? current?.payoutAccountId ?? '';
  const chosenHour = form.hour ?? String(current?.hour ?? 18);
  const keep = form.keep ?? (current ? String(current.keepCents / 100) : '');
  return html`<h2 id="automatic">${t.automaticTitle}</h2>
<p class="hint">${t.automaticIntro}</p>
${
  settings.length === 0
    ? html`<p>${t.automaticNone}</p>`
    : html`<ul data-testid="automatic-settlements">${settings.map(({ store, setting }) => {
        const account = accountOf(setting.payoutAccountId);
        return html`<li data-store-id="${store.id}" data-enabled="${String(setting.enabled)}"><strong>${store.name}</strong> · ${
          setting.enabled
            ? t.automaticOn(
                hourLabel(setting.hour),
                account ? `${account.holder} · ${accountText(account)}` : t.automaticAccountGone,
                formatAmount(setting.keepCents, store.currency),
              )
            : t.automaticOff
        }
${
  overview.canManageAccounts &&
  setting.enabled &&
  html`<form method="post" action="${dashboardUrl(context, '/withdrawals/automatic')}" class="inline">
${csrfField(context.csrfToken)}<input type="hidden" name="action" value="off"><input type="hidden" name="storeId" value="${store.id}">
<button class="button button-secondary" type="submit" aria-label="${t.automaticTurnOff(store.name)}">${t.turnOff}</button>
</form>`
}</li>`;
      })}</ul>`
}
${
  overview.canManageAccounts &&
  (overview.accounts.length === 0
    ? html`<p class="hint">${t.automaticNeedsAccount}</p>`
    : html`${errorSummary(t.errorSummary, errors)}
<form method="post" action="${dashboardUrl(context, '/withdrawals/automatic')}" novalidate data-testid="automatic-form">
${csrfField(context.csrfToken)}
<input type="hidden" name="action" value="save">
${
  overview.stores.length === 1 && overview.stores[0]
    ? html`<input type="hidden" name="storeId" value="${overview.stores[0].store.id}">`
    : html`<label class="field" for="auto-storeId">${t.store}</label>
${errorOf('auto-storeId') && html`<p class="field-error" id="auto-storeId-error">${errorOf('auto-storeId')}</p>`}
<select class="input" id="auto-storeId" name="storeId">
${overview.stores.map(({ store }) => html`<option value="${store.id}"${chosenStore === store.id ? html` selected` : ''}>${store.name}</option>`)}
</select>`
}
<label class="field" for="auto-payoutAccountId">${t.account}</label>
${errorOf('auto-payoutAccountId') && html`<p class="field-error" id="auto-payoutAccountId-error">${errorOf('auto-payoutAccountId')}</p>`}
<select class="input" id="auto-payoutAccountId" name="payoutAccountId">
${overview.accounts.map((account) => html`<option value="${account.id}"${chosenAccount === account.id ? html` selected` : ''}>${account.holder} · ${accountText(account)}</option>`)}
</select>
<label class="field" for="hour">${t.automaticHour}</label>
${errorOf('hour') && html`<p class="field-error" id="hour-error">${errorOf('hour')}</p>`}
<select class="input" id="hour" name="hour">
${Array.from({ length: 24 }, (_, hour) => html`<option value="${String(hour)}"${chosenHour === String(hour) ? html` selected` : ''}>${hourLabel(hour)} UTC</option>`)}
</select>
${field({ name: 'keep', label: t.automaticKeep, hint: t.automaticKeepHint, value: keep, error: errorOf('keep'), attributes: html` inputmode="numeric" autocomplete="off"` })}
<button class="button" type="submit">${t.automaticSave}</button>
</form>`)
}`;
}

function withdrawForm(
  context: Context,
  overview: WithdrawalsOverview,
  usable: WithdrawalsOverview['accounts'],
  state: WithdrawalsPageState,
): SafeHtml {
  const t = text[context.language];
  const form = state.withdrawal?.form ?? {};
  const errors = problemMessages(context.language, state.withdrawal?.problems ?? []);
  const errorOf = (name: string) => errors.find((error) => error.field === name)?.message;
  const [first] = overview.stores;
  const most =
    first && usable[0] ? withdrawableCents(first.availableCents, usable[0].paymentMethod) : undefined;
  return html`${errorSummary(t.errorSummary, errors)}
<form method="post" action="${dashboardUrl(context, '/withdrawals')}" novalidate>
${csrfField(context.csrfToken)}
${field({ name: 'amount', label: t.amount, hint: `${t.amountHint}${most && first ? ` ${t.most(formatAmount(most), formatAmount(first.availableCents))}` : ''}`, value: form.amount ?? '', error: errorOf('amount'), attributes: html` inputmode="numeric" autocomplete="off"` })}
<label class="field" for="payoutAccountId">${t.account}</label>
${errorOf('payoutAccountId') && html`<p class="field-error" id="payoutAccountId-error">${errorOf('payoutAccountId')}</p>`}
<select class="input" id="payoutAccountId" name="payoutAccountId">
${usable.map((account) => html`<option value="${account.id}"${form.payoutAccountId === account.id ? html` selected` : ''}>${account.holder} · ${accountText(account)}</option>`)}
</select>
${
  overview.stores.length === 1 && first
    ? html`<input type="hidden" name="storeId" value="${first.store.id}">`
    : html`<label class="field" for="storeId">${t.store}</label>
${errorOf('storeId') && html`<p class="field-error" id="storeId-error">${errorOf('storeId')}</p>`}
<select class="input" id="storeId" name="storeId">
${overview.stores.map(({ store, availableCents }) => html`<option value="${store.id}"${form.storeId === store.id ? html` selected` : ''}>${store.name} (${t.available(formatAmount(availableCents, store.currency))})</option>`)}
</select>`
}
<button class="button" type="submit">${t.continue}</button>
</form>`;
}

function accountProblemText(
  language: Language,
  problem: PayoutAccountProblem,
  phoneCountry: UemoaCountry,
): string {
  const p = text[language].problems;
  if (problem.field === 'number' && problem.rule === 'format')
    return phoneExamples(phoneCountry, language).invalidMobile;
  if (problem.rule === 'max') return p.max;
  if (problem.rule === 'provider_country') return p.providerCountry;
  if (problem.field === 'number') return problem.rule === 'format' ? p.numberFormat : p.number;
  if (problem.field === 'iban') return problem.rule === 'format' ? p.ibanFormat : p.iban;
  return p[problem.field];
}

/**
 * The owner's form for a new payout account. A mobile number is read in the country chosen beside
 * it (the business's first store's by default), whose common wallet heads the operators.
 */
function addAccountForm(
  context: Context,
  state: WithdrawalsPageState,
  storeCountry: UemoaCountry | undefined,
): SafeHtml {
  const t = text[context.language];
  const form = state.account?.form ?? {};
  const problems = state.account?.problems ?? [];
  const country = phoneCountryOf(form.phoneCountry, { businessCountry: storeCountry });
  const examples = phoneExamples(country, context.language);
  const errors = problems.map((problem) => ({
    field: problem.field,
    message: accountProblemText(context.language, problem, country),
  }));
  const errorOf = (name: string) => errors.find((error) => error.field === name)?.message;
  const kind = form.kind === 'bank' ? 'bank' : 'mobile';
  const hours =
    state.coolingHours >= 1
      ? context.language === 'fr'
        ? `${state.coolingHours} h`
        : `${state.coolingHours} hours`
      : context.language === 'fr'
        ? 'un court délai'
        : 'a short wait';
  const operatorError = errorOf('paymentMethod');
  return html`<h2 id="add-account">${t.addTitle}</h2>
${errorSummary(t.errorSummary, errors)}
<p class="hint">${t.addIntro(hours)}</p>
<form method="post" action="${dashboardUrl(context, '/withdrawals/accounts')}" novalidate>
${csrfField(context.csrfToken)}
<input type="hidden" name="action" value="check">
${field({ name: 'holder', label: t.holder, value: form.holder ?? '', error: errorOf('holder'), attributes: html` maxlength="255" autocomplete="name"` })}
<fieldset id="kind"><legend class="field">${t.kind}</legend>
<div class="panel">
<label class="provider"><input type="radio" name="kind" value="mobile"${kind === 'mobile' ? html` checked` : ''}><span class="provider-name">${t.mobile}</span></label>
<label class="field" for="paymentMethod">${t.operator}</label>
${operatorError && html`<p class="field-error" id="paymentMethod-error">${operatorError}</p>`}
<select class="input" id="paymentMethod" name="paymentMethod">
<option value="">${t.chooseOperator}</option>
${everyProviderByUse(country, providerCodes).map((code) => html`<option value="${code}"${form.paymentMethod === code ? html` selected` : ''}>${providerNames[code]}</option>`)}
</select>
${phoneField({ name: 'number', label: t.number, country, language: context.language, hint: examples.hint, value: form.number ?? '', error: errorOf('number'), attributes: html` type="tel" inputmode="tel" autocomplete="off"` })}
</div>
<div class="panel">
<label class="provider"><input type="radio" name="kind" value="bank"${kind === 'bank' ? html` checked` : ''}><span class="provider-name">${t.bank}</span></label>
${field({ name: 'bankName', label: t.bankName, value: form.bankName ?? '', error: errorOf('bankName'), attributes: html` maxlength="64" autocomplete="off"` })}
${field({ name: 'iban', label: t.iban, hint: t.ibanHint, value: form.iban ?? '', error: errorOf('iban'), attributes: html` autocomplete="off" spellcheck="false"` })}
</div>
</fieldset>
<button class="button" type="submit">${t.add}</button>
</form>`;
}

/** The SMS code's step: what is added, the code field; the form carries the account as checked. */
export function payoutAccountCodePage(
  context: Context,
  input: PayoutAccountInput,
  account: CheckedPayoutAccount,
  stepUp:
    | StepUpStart
    | {
        outcome: 'sent';
        attemptId: string;
        phone: string;
        error: 'wrong' | 'malformed' | 'ended';
        triesLeft?: number;
      },
): string {
  const t = text[context.language];
  const error = 'error' in stepUp ? stepUp.error : undefined;
  const codeError =
    error === 'wrong'
      ? t.codeWrong(('triesLeft' in stepUp && stepUp.triesLeft) || 0)
      : error === 'malformed'
        ? t.codeMalformed
        : undefined;
  const refusal =
    error === 'ended'
      ? t.codeEnded
      : stepUp.outcome === 'limited'
        ? t.limited
        : stepUp.outcome === 'no_phone'
          ? t.noPhone
          : undefined;
  const fields = Object.entries(input).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  const label = 'number' in account.identifier ? account.identifier.number : account.identifier.bankName;
  return page(
    context,
    t.codeTitle,
    html`<h1>${t.codeTitle}</h1>
${errorSummary(t.errorSummary, codeError ? [{ field: 'code', message: codeError }] : [])}
${refusal && html`<div class="alert" role="alert"><p>${refusal}</p></div>`}
<dl class="facts" data-testid="new-account"><dt>${t.holder}</dt><dd>${account.holder}</dd><dt>${account.paymentMethod === 'bank' ? t.bank : t.operator}</dt><dd>${account.paymentMethod === 'bank' ? label : (providerNames[account.paymentMethod as ProviderCode] ?? account.paymentMethod)}</dd>
${account.paymentMethod !== 'bank' && html`<dt>${t.number}</dt><dd class="nowrap">${label}</dd>`}</dl>
${
  stepUp.outcome === 'sent' &&
  error !== 'ended' &&
  html`<form method="post" action="${dashboardUrl(context, '/withdrawals/accounts')}" novalidate>
${csrfField(context.csrfToken)}
<input type="hidden" name="action" value="confirm">
<input type="hidden" name="attemptId" value="${stepUp.attemptId}">
${fields}
${field({ name: 'code', label: t.code(maskPhone(stepUp.phone)), hint: t.codeHint, error: codeError, attributes: html` inputmode="numeric" autocomplete="one-time-code" maxlength="6"` })}
<button class="button" type="submit">${t.confirmAdd}</button>
</form>`
}
<p class="note"><a href="${dashboardUrl(context, '/withdrawals')}#add-account">${t.cancel}</a></p>`,
  );
}

/** "Remove this account?": the one button that does it, and the way back. */
export function removePayoutAccountPage(
  context: Context,
  account: PayoutAccount & { label: string },
): string {
  const t = text[context.language];
  return page(
    context,
    t.removeTitle,
    html`<h1>${t.removeTitle}</h1>
<p><strong>${account.holder}</strong> · ${accountText(account)}</p>
<p>${t.removeBody}</p>
<form method="post" action="${dashboardUrl(context, '/withdrawals/accounts')}">
${csrfField(context.csrfToken)}<input type="hidden" name="action" value="remove"><input type="hidden" name="id" value="${account.id}"><input type="hidden" name="confirm" value="yes">
<button class="button button-decline" type="submit">${t.removeConfirm}</button>
</form>
<p class="note"><a href="${dashboardUrl(context, '/withdrawals')}">${t.cancel}</a></p>`,
  );
}
