import { listActivities } from '#shared/domain/activities.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { negotiateLanguage } from '#shared/pages/language.ts';
import { serviceProviderRoutes } from '#shared/routes.ts';

export const handler = apiHandler(serviceProviderRoutes.listActivities, {}, async ({ headers }) =>
  listActivities(negotiateLanguage(headers['accept-language'])),
);
