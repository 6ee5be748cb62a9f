import { referenceEndpoints } from '#shared/api/reference.ts';
import { documentHandler } from '#shared/http/document-handler.ts';
import { referenceAsset } from '#shared/reference/page.ts';

export const handler = documentHandler(referenceEndpoints.referencePageAsset, async (event) =>
  referenceAsset(event.pathParameters?.file),
);
