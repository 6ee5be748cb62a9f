import { contactEndpoints } from '#shared/api/contacts.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { removeContact } from '#shared/operations/contacts.ts';

export const handler = apiHandler(contactEndpoints.deleteContact, async ({ caller, params }) =>
  removeContact(caller, params.id),
);
