import { listActivities } from '#shared/domain/activities.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { negotiateLanguage } from '#shared/pages/language.ts';
import { routes } from '#shared/routes.ts';

export const handler = apiHandler(routes.listActivities, {}, async ({ headers }) =>
  listActivities(negotiateLanguage(headers['accept-language'])),
);
