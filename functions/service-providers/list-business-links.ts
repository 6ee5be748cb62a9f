import { apiHandler } from '#shared/http/api-handler.ts';
import { listBusinessLinks } from '#shared/operations/service-providers.ts';
import { routes } from '#shared/routes.ts';

export const handler = apiHandler(routes.listBusinessLinks, {}, ({ caller }) => listBusinessLinks(caller));
