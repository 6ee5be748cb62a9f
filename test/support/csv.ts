/**
 * An RFC 4180 reader for the tests, written apart from the export's writer so that one cannot
 * hide the other's mistake: records end at CRLF, a quoted field may hold commas, CR, LF and
 * doubled quotes. Answers the header's names mapped to each record's fields.
 */
export function parseCsv(
  text: string,
  delimiter = ',',
): { header: string[]; rows: Record<string, string>[] } {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === delimiter) {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += char;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  const [header = [], ...rest] = records;
  return {
    header,
    rows: rest.map((fields) => {
      if (fields.length !== header.length)
        throw new Error(`a record of ${fields.length} fields under ${header.length} names`);
      return Object.fromEntries(header.map((name, index) => [name, fields[index] as string]));
    }),
  };
}

/** A transaction as the API lists it (`GET /partner_api/transactions`). */
export interface ListedTransaction {
  id: string;
  type: string;
  status: string;
  amount: { amount: number };
  fees: { amount: number };
  currency: string;
  paymentMethod: string;
  counterpartLabel: string;
  counterpartIdentifier: string;
  description: string;
  reference: string;
  storeId: string;
  createdAt: string;
  transactionDetails?: { id?: string; reference?: string; paymentLinkId?: string };
  paymentRequestId?: string;
  escrowId?: string;
  refundId?: string;
}

/**
 * The dashboard's export is written for a person in a spreadsheet (issue 35, item 3): headers and
 * words in the page's language, money signed, texts that start with a digit or a sign behind a tab.
 * These are the words the tests read it by, written apart from the export's own tables.
 */
export type FileLanguage = 'fr' | 'en';

export const exportHeaders = {
  fr: {
    date: 'Date (heure locale)',
    dateUtc: 'Date (UTC)',
    type: 'Type',
    status: 'Statut',
    item: 'Libellé',
    amount: 'Montant',
    fees: 'Frais',
    net: 'Net',
    currency: 'Devise',
    paymentMethod: 'Moyen de paiement',
    counterpart: 'Client ou bénéficiaire',
    number: 'Numéro',
    reference: 'Référence',
    store: 'Point de vente',
    id: 'ID transaction',
    paymentRequestId: 'ID demande de paiement',
    paymentLinkId: 'ID lien de paiement',
    escrowId: 'ID séquestre',
    refundId: 'ID remboursement',
    storeId: 'ID point de vente',
  },
  en: {
    date: 'Date (local time)',
    dateUtc: 'Date (UTC)',
    type: 'Type',
    status: 'Status',
    item: 'Description',
    amount: 'Amount',
    fees: 'Fees',
    net: 'Net',
    currency: 'Currency',
    paymentMethod: 'Payment method',
    counterpart: 'Customer or beneficiary',
    number: 'Number',
    reference: 'Reference',
    store: 'Point of sale',
    id: 'Transaction ID',
    paymentRequestId: 'Payment request ID',
    paymentLinkId: 'Payment link ID',
    escrowId: 'Escrow ID',
    refundId: 'Refund ID',
    storeId: 'Point of sale ID',
  },
} as const;

const typeWords: Record<FileLanguage, Record<string, string>> = {
  fr: {
    Paiement: 'payment',
    Remboursement: 'refund',
    Transfert: 'transfer',
    'Séquestre libéré': 'escrow',
    'Crédit SMS': 'sms_credit',
  },
  en: {
    Payment: 'payment',
    Refund: 'refund',
    Transfer: 'transfer',
    'Escrow released': 'escrow',
    'SMS credit': 'sms_credit',
  },
};
const statusWords: Record<FileLanguage, Record<string, string>> = {
  fr: { Réussi: 'success', 'En attente': 'pending', Échoué: 'error' },
  en: { Succeeded: 'success', Pending: 'pending', Failed: 'error' },
};
const operatorNames: Record<string, string> = {
  wave: 'Wave',
  orange_money: 'Orange Money',
  orange: 'Orange Money',
};

/**
 * A text cell as the spreadsheet shows it: the tab that keeps a number as text taken off, or the
 * apostrophe that disarms a formula.
 */
export const cellText = (value: string | undefined): string => {
  if (value === undefined) return '';
  if (value.startsWith('\t')) return value.slice(1);
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
};

/** A money cell in cents: a decimal comma in a `;` file, a point in a `,` one. */
export const cellCents = (value: string | undefined, delimiter: ';' | ','): number => {
  const text = (value ?? '').trim();
  if (!/^-?\d+([.,]\d{1,2})?$/.test(text)) throw new Error(`not an amount: ${JSON.stringify(value)}`);
  if (delimiter === ';' && text.includes('.')) throw new Error(`a decimal point in a ';' file: ${text}`);
  if (delimiter === ',' && text.includes(',')) throw new Error(`a decimal comma in a ',' file: ${text}`);
  return Math.round(Number(text.replace(',', '.')) * 100);
};

/** What the file and the API's list both say of a line, to compare them field by field. */
export interface ComparedLine {
  id: string;
  createdAt: string;
  type: string;
  status: string;
  amount: number;
  fees: number;
  currency: string;
  paymentMethod: string;
  counterpartLabel: string;
  counterpartIdentifier: string;
  description: string;
  reference: string;
  storeId: string;
  paymentRequestId?: string;
  escrowId?: string;
  refundId?: string;
}

/** `2026-11-28T04:05:00.123Z` as the file writes a UTC time: `2026-11-28 04:05:00`. */
const utcClock = (iso: string) => iso.slice(0, 19).replace('T', ' ');

/**
 * The file's row read back as the API's Transaction (amounts unsigned: the sign is checked on its
 * own, as `signedAmount`), to compare with the API's list.
 */
export function rowAsListed(
  row: Record<string, string>,
  language: FileLanguage,
  delimiter: ';' | ',',
): ComparedLine {
  const h = exportHeaders[language];
  const optional = (name: keyof typeof h) => {
    const value = cellText(row[h[name]]);
    return value ? value : undefined;
  };
  const paymentRequestId = optional('paymentRequestId');
  const escrowId = optional('escrowId');
  const refundId = optional('refundId');
  return {
    id: cellText(row[h.id]),
    createdAt: row[h.dateUtc] ?? '',
    type: typeWords[language][row[h.type] ?? ''] ?? `?${row[h.type]}`,
    status: statusWords[language][row[h.status] ?? ''] ?? `?${row[h.status]}`,
    amount: Math.abs(cellCents(row[h.amount], delimiter)),
    fees: Math.abs(cellCents(row[h.fees], delimiter)),
    currency: row[h.currency] ?? '',
    paymentMethod: cellText(row[h.paymentMethod]),
    counterpartLabel: cellText(row[h.counterpart]),
    counterpartIdentifier: cellText(row[h.number]),
    description: cellText(row[h.item]),
    reference: cellText(row[h.reference]),
    storeId: cellText(row[h.storeId]),
    ...(paymentRequestId ? { paymentRequestId } : {}),
    ...(escrowId ? { escrowId } : {}),
    ...(refundId ? { refundId } : {}),
  };
}

/** The signed amount of a row, in cents. */
export const signedAmount = (row: Record<string, string>, language: FileLanguage, delimiter: ';' | ',') =>
  cellCents(row[exportHeaders[language].amount], delimiter);

/** The API's Transaction as the file should show it (what was sold: its description, no link here). */
export const listedForComparison = (item: ListedTransaction): ComparedLine => ({
  id: item.id,
  createdAt: utcClock(item.createdAt),
  type: item.type,
  status: item.status,
  amount: item.amount.amount,
  fees: item.fees.amount,
  currency: item.currency,
  paymentMethod: operatorNames[item.paymentMethod] ?? item.paymentMethod,
  counterpartLabel: item.counterpartLabel,
  counterpartIdentifier: item.counterpartIdentifier,
  description: item.description,
  reference: item.reference,
  storeId: item.storeId,
  ...(item.paymentRequestId ? { paymentRequestId: item.paymentRequestId } : {}),
  ...(item.escrowId ? { escrowId: item.escrowId } : {}),
  ...(item.refundId ? { refundId: item.refundId } : {}),
});
