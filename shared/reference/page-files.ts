/** The reference page's own files: the viewer and its stylesheet, and the page's start-up script. */
export const referenceAssetNames = ['swagger-ui-bundle.js', 'swagger-ui.css', 'reference-page.js'] as const;

/**
 * The viewer's files as the package ships them (`package/path`): copied beside the asset
 * function's bundle on a stage (its declaration's `files`), read from node_modules locally.
 */
export const referenceViewerFiles = [
  'swagger-ui-dist/swagger-ui-bundle.js',
  'swagger-ui-dist/swagger-ui.css',
] as const;
