import { array, globalRegistry, object, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';

/** The catalogue of business activities a service provider onboards a merchant with. */

const activitySchema = object({ id: string(), name: string() });

export const activityCategorySchema = object({
  id: string(),
  name: string(),
  activities: array(activitySchema),
}).register(globalRegistry, {
  id: 'ActivityCategory',
  examples: [
    {
      id: 'food',
      name: 'Restauration',
      activities: [
        { id: 'food.maquis', name: 'Maquis' },
        { id: 'food.restaurant', name: 'Restaurant' },
      ],
    },
  ],
});

export const activityEndpoints = /* @__PURE__ */ endpointsIn('service-providers', {
  listActivities: {
    method: 'GET',
    path: '/partner_api/service_providers/activities',
    caller: 'service_provider',
    access: ['table:GetItem', 'table:UpdateItem'],
    tag: 'Service providers',
    summary: 'List the business activities',
    response: array(activityCategorySchema),
    responseDescription: 'A bare array of categories.',
  },
});
