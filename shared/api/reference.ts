import { enum as enumOf, object } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { referenceAssetNames, referenceViewerFiles } from '#shared/reference/page-files.ts';

export const referenceAssetParams = object({ file: enumOf(referenceAssetNames) });

const tag = 'Reference';

export const referenceEndpoints = /* @__PURE__ */ endpointsIn('reference', {
  openApiDocument: {
    method: 'GET',
    path: '/openapi.json',
    caller: 'public',
    access: [],
    document: true,
    tag,
    summary: 'This document',
    contentType: 'application/json',
    answers: { 200: 'The OpenAPI document.' },
  },
  referencePage: {
    method: 'GET',
    path: '/docs',
    caller: 'public',
    access: [],
    document: true,
    tag,
    summary: 'The API reference, in a browser',
    contentType: 'text/html',
    answers: { 200: 'The reference page.' },
  },
  referencePageAsset: {
    method: 'GET',
    path: '/docs/assets/{file}',
    caller: 'public',
    access: [],
    files: referenceViewerFiles,
    document: true,
    tag,
    summary: 'A file of the reference page',
    params: referenceAssetParams,
    contentType: 'application/octet-stream',
    answers: { 200: 'The file.', 404: 'No such file.' },
  },
});
