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

/** A text field of the file as the API gives it: the apostrophe that disarms a formula taken off. */
const asText = (value: string | undefined) =>
  value !== undefined && /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : (value ?? '');

/** The file's row as the API's Transaction, to compare with the API's list field by field. */
export function rowAsListed(row: Record<string, string>): ListedTransaction {
  const optional = (value: string | undefined) => (value ? value : undefined);
  const details = {
    id: optional(asText(row.transactionDetailsId)),
    reference: optional(asText(row.transactionDetailsReference)),
    paymentLinkId: optional(asText(row.paymentLinkId)),
  };
  const kept = Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined));
  return {
    id: row.id ?? '',
    type: row.type ?? '',
    status: row.status ?? '',
    amount: { amount: Number(row.amountCents) },
    fees: { amount: Number(row.feesCents) },
    currency: row.currency ?? '',
    paymentMethod: asText(row.paymentMethod),
    counterpartLabel: asText(row.counterpartLabel),
    counterpartIdentifier: asText(row.counterpartIdentifier),
    description: asText(row.description),
    reference: asText(row.reference),
    storeId: row.storeId ?? '',
    createdAt: row.createdAt ?? '',
    ...(Object.keys(kept).length > 0 ? { transactionDetails: kept } : {}),
    ...(row.paymentRequestId ? { paymentRequestId: row.paymentRequestId } : {}),
    ...(row.escrowId ? { escrowId: row.escrowId } : {}),
    ...(row.refundId ? { refundId: row.refundId } : {}),
  };
}

/** The API's Transaction with only the fields the file compares (amounts' currency is `currency`). */
export const listedForComparison = (item: ListedTransaction): ListedTransaction => ({
  ...item,
  amount: { amount: item.amount.amount },
  fees: { amount: item.fees.amount },
});
