import { apiHandler } from '#shared/http/api-handler.ts';
import { removeContact } from '#shared/operations/contacts.ts';
import { contactRoutes } from '#shared/routes.ts';
import { contactPathParams } from '#shared/schemas/contacts.ts';

export const handler = apiHandler(
  contactRoutes.deleteContact,
  { params: contactPathParams },
  async ({ caller, params }) => removeContact(caller, params.id),
);
