import {
  enum as enumOf,
  maxLength,
  minLength,
  nullish,
  object,
  pipe,
  refine,
  regex,
  string,
  transform,
  uuid,
} from 'zod/mini';
import { providerCodes } from '#shared/domain/payment-methods.ts';
import { readZoneNumber } from '#shared/domain/phone-numbers.ts';

// Apart from the port (shared/providers/port.ts) so that what imports the port for its types and
// errors does not carry zod: a schema built at the top of a module stays in every bundle that
// imports the module. Only the sandbox's callback check (`sandboxCallbacks`) uses it, and only the
// callback routes reach that side of the adapters (shared/providers/routing.ts).

/**
 * What a callback body must hold once its signature checks out, whoever signed it. A signature
 * proves who sent the body, not that it is sane: ids are checked here, before any is used as a
 * key, and texts kept to sizes a provider has any reason to send.
 */
export const verifiedCallbackBody = object({
  callbackId: string().check(minLength(1), maxLength(128)),
  provider: enumOf(providerCodes),
  providerReference: string().check(minLength(1), maxLength(128), regex(/^[\w.:-]+$/)),
  paymentRequestId: uuid(),
  outcome: enumOf(['success', 'declined', 'insufficient_funds']),
  // A provider may send null for what it does not know (no phone when the payer declined).
  payerPhone: pipe(
    nullish(string().check(refine((phone) => readZoneNumber(phone, null)?.e164 === phone))),
    transform((phone) => phone ?? undefined),
  ),
  payerName: pipe(
    nullish(string().check(minLength(1), maxLength(100))),
    transform((name) => name ?? undefined),
  ),
});
