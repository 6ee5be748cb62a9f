import { contactEndpoints, contactResponse } from '#shared/api/contacts.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { contactsOf } from '#shared/operations/contacts.ts';

export const handler = apiHandler(contactEndpoints.listContacts, async ({ caller }) =>
  (await contactsOf(caller)).map(contactResponse),
);
