import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { escapeHtml } from '#shared/pages/html.ts';
import { referenceAssetNames, referenceViewerFiles } from '#shared/reference/page-files.ts';

/**
 * The reference page: Swagger UI (swagger-ui-dist) over the served document, every file from this
 * service, nothing from elsewhere, so it works offline and behind a firewall. The viewer is served
 * as the package ships it: copied beside the function's bundle on a stage (the route's `files`),
 * read from node_modules on the local host.
 */
const startScript = `const root = document.getElementById('reference');
window.ui = SwaggerUIBundle({
  url: root.dataset.specUrl,
  domNode: root,
  deepLinking: true,
  validatorUrl: null,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 0,
  // Sections closed until opened (or named in the address): with every operation of 130 open at
  // once, the viewer stops drawing after the first few sections.
  docExpansion: 'none',
});
`;

/** The page's own script and the viewer's bundle only; the viewer styles elements inline. */
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Where the guides are. A stage serves no files of the repository, so the page names them rather
 * than linking to them.
 */
const guidesStyle =
  'max-width:1460px;margin:12px auto 0;padding:0 20px;box-sizing:border-box;font:14px sans-serif;color:#3b4151';

export function referencePage(baseUrl: string): APIGatewayProxyResult {
  const base = escapeHtml(baseUrl);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Partner Payments API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}/docs/assets/swagger-ui.css">
</head>
<body>
<p style="${guidesStyle}">Guides (a first payment, the sandbox, webhooks, errors and limits, operating a stage) are in
the service's repository: <code>README.md</code>, then <code>docs/README.md</code>, which links each of them.</p>
<div id="reference" data-spec-url="${base}/openapi.json"></div>
<script src="${base}/docs/assets/swagger-ui-bundle.js"></script>
<script src="${base}/docs/assets/reference-page.js"></script>
</body>
</html>
`;
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    },
    body: html,
  };
}

type AssetName = (typeof referenceAssetNames)[number];

const contentTypes: Record<AssetName, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'reference-page.js': 'text/javascript; charset=utf-8',
};

function packageFile(name: AssetName): string {
  const specifier = referenceViewerFiles.find((file) => basename(file) === name);
  if (!specifier) throw new Error(`${name} is not among the reference page's files`);
  const besideBundle = fileURLToPath(new URL(`./${name}`, import.meta.url));
  if (existsSync(besideBundle)) return readFileSync(besideBundle, 'utf8');
  return readFileSync(createRequire(import.meta.url).resolve(specifier), 'utf8');
}

const loaded = new Map<AssetName, string>();

/** One of the page's files, read once per container; anything else is not found. */
export function referenceAsset(name: string | undefined): APIGatewayProxyResult {
  if (!referenceAssetNames.includes(name as AssetName)) {
    return {
      statusCode: 404,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ id: 'not_found', message: 'Route not found', extras: null }),
    };
  }
  const asset = name as AssetName;
  let body = loaded.get(asset);
  if (body === undefined) {
    body = asset === 'reference-page.js' ? startScript : packageFile(asset);
    loaded.set(asset, body);
  }
  return {
    statusCode: 200,
    headers: {
      'content-type': contentTypes[asset],
      'x-content-type-options': 'nosniff',
      // The viewer changes with a deploy only; an hour keeps a reload cheap without pinning old files.
      'cache-control': 'public, max-age=3600',
    },
    body,
  };
}
