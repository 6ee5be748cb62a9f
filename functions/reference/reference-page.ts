import { documentHandler } from '#shared/http/document-handler.ts';
import { publicBaseUrl } from '#shared/http/public-base-url.ts';
import { referencePage } from '#shared/reference/page.ts';

export const handler = documentHandler('referencePage', async (event) => referencePage(publicBaseUrl(event)));
