import { contactEndpoints, contactResponse } from '#shared/api/contacts.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { saveContact } from '#shared/operations/contacts.ts';

export const handler = apiHandler(contactEndpoints.createContact, async ({ caller, body }) =>
  contactResponse(await saveContact(caller, body)),
);
