import { activityEndpoints } from '#shared/api/activities.ts';
import { listActivities } from '#shared/domain/activities.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { negotiateLanguage } from '#shared/pages/language.ts';

export const handler = apiHandler(activityEndpoints.listActivities, async ({ headers }) =>
  listActivities(negotiateLanguage(headers['accept-language'])),
);
