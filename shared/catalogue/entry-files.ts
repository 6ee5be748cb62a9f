/**
 * Where a function's code lives: `functions/<folder>/<name in kebab case>.ts`, exporting `handler`.
 * Declarations name their folder once (a capability's endpoints, the workers...) and each entry
 * file is found from its name, so no declaration holds a path and none can point at a stale one
 * (`test/unit/function-catalogue.test.ts` checks that every entry exists and serves its own
 * declaration, and that no file under `functions/` is left without one).
 */
export type FunctionFolder =
  | 'contacts'
  | 'dashboard'
  | 'devices'
  | 'escrows'
  | 'messages'
  | 'pages'
  | 'payment-links'
  | 'payment-requests'
  | 'provider-callbacks'
  | 'reference'
  | 'refunds'
  | 'sandbox'
  | 'service-providers'
  | 'statements'
  | 'stores'
  | 'transactions'
  | 'transfers'
  | 'webhook-deliveries'
  | 'webhook-subscriptions'
  | 'withdrawals'
  | 'workers';

/** What locating adds to a declaration: its name and its entry file, relative to the project root. */
export interface Located<Name extends string = string> {
  readonly name: Name;
  readonly entry: string;
}

const kebabCaseOf = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** `createPaymentRequest` in `payment-requests` → `functions/payment-requests/create-payment-request.ts`. */
export const entryFileOf = (folder: FunctionFolder, name: string) =>
  `functions/${folder}/${kebabCaseOf(name)}.ts`;

/** The declarations of one folder's functions, each given its name and entry file. */
export function locatedIn<const T extends Record<string, object>>(
  folder: FunctionFolder,
  declarations: T,
): { readonly [Name in keyof T & string]: T[Name] & Located<Name> } {
  return Object.fromEntries(
    Object.entries(declarations).map(([name, declaration]) => [
      name,
      { ...declaration, name, entry: entryFileOf(folder, name) },
    ]),
  ) as never;
}
