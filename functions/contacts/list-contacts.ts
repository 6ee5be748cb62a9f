import { apiHandler } from '#shared/http/api-handler.ts';
import { contactsOf } from '#shared/operations/contacts.ts';
import { contactRoutes } from '#shared/routes.ts';
import { contactResponse } from '#shared/schemas/contacts.ts';

export const handler = apiHandler(contactRoutes.listContacts, {}, async ({ caller }) =>
  (await contactsOf(caller)).map(contactResponse),
);
