import { apiHandler } from '#shared/http/api-handler.ts';
import { saveContact } from '#shared/operations/contacts.ts';
import { contactRoutes } from '#shared/routes.ts';
import { contactResponse, createContactBody } from '#shared/schemas/contacts.ts';

export const handler = apiHandler(
  contactRoutes.createContact,
  { body: createContactBody },
  async ({ caller, body }) => contactResponse(await saveContact(caller, body)),
);
