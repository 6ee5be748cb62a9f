import { enum as enumOf, object } from 'zod';
import type { RouteContracts } from '#shared/schemas/contract.ts';

/** The reference's own files: the viewer and its stylesheet, and the page's start-up script. */
export const referenceAssetNames = ['swagger-ui-bundle.js', 'swagger-ui.css', 'reference-page.js'] as const;

export const referenceAssetParams = object({ file: enumOf(referenceAssetNames) });

const tag = 'Reference';

export const referenceContracts = {
  openApiDocument: {
    document: true,
    tag,
    summary: 'This document',
    description:
      'OpenAPI 3.1, generated from the schemas the service validates with; `servers` names the host ' +
      'that served it. Production leaves out the sandbox operations.',
    contentType: 'application/json',
    answers: { 200: 'The OpenAPI document.' },
  },
  referencePage: {
    document: true,
    tag,
    summary: 'The API reference, in a browser',
    contentType: 'text/html',
    answers: { 200: 'The reference page.' },
  },
  referencePageAsset: {
    document: true,
    tag,
    summary: 'A file of the reference page',
    params: referenceAssetParams,
    contentType: 'application/octet-stream',
    answers: { 200: 'The file.', 404: 'No such file.' },
  },
} as const satisfies RouteContracts;
