import { documentHandler } from '#shared/http/document-handler.ts';
import { referenceAsset } from '#shared/reference/page.ts';

export const handler = documentHandler('referencePageAsset', async (event) =>
  referenceAsset(event.pathParameters?.file),
);
