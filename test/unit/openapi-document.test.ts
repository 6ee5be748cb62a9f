import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/paths.ts';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import { webhookEvents } from '#shared/api/webhook-events.ts';
import { endpointDescriptions } from '#shared/openapi/descriptions.ts';
import {
  buildOpenApiDocument,
  endpointEntriesFor,
  isDashboardPath,
  openApiDocumentPath,
  openApiDocumentPaths,
  serializeOpenApiDocument,
} from '#shared/openapi/document.ts';
import { servedDocument } from '#shared/reference/served-document.ts';
import type { Body } from '#test/support/api-client.ts';

const committed = readFileSync(join(projectRoot, openApiDocumentPath), 'utf8');
const committedDashboard = readFileSync(join(projectRoot, openApiDocumentPaths.dashboard), 'utf8');

type LintProblem = Awaited<ReturnType<typeof lintFromString>>[number];

/** The linter's errors and warnings but those the documents mean (each said why). */
const described = (problems: LintProblem[]) =>
  problems
    // A form post that only redirects has no 2xx, and the document itself has no 4xx: both true.
    .filter((problem) => !['operation-2xx-response', 'operation-4xx-response'].includes(problem.ruleId))
    // pawaPay's dashboard takes one fixed URL per kind (`/provider_callbacks/pawapay/payouts`...),
    // which `/provider_callbacks/{provider}/payouts` would also match: API Gateway and the local
    // host take a literal segment before a variable, so the path is pawaPay's. Only this pair.
    .filter(
      (problem) =>
        !(
          problem.ruleId === 'no-ambiguous-paths' &&
          problem.message.includes(
            '`/provider_callbacks/{provider}/payouts` and `/provider_callbacks/pawapay/{kind}`',
          )
        ),
    )
    .map(
      (problem) =>
        `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
    );

describe('the OpenAPI document', () => {
  it('is committed as the code generates it (run `npm run openapi` after changing a schema)', () => {
    expect(committed).toBe(serializeOpenApiDocument(buildOpenApiDocument()));
  });

  it('has no path of the dashboard’s, as committed, as served, or in the typed client', () => {
    const dashboardPaths = (document: Body) => Object.keys(document.paths).filter(isDashboardPath);
    expect(dashboardPaths(JSON.parse(committed))).toEqual([]);
    expect(dashboardPaths(servedDocument('https://api.example.test', true) as Body)).toEqual([]);
    expect(dashboardPaths(servedDocument('https://api.example.test', false) as Body)).toEqual([]);
    expect(readFileSync(join(projectRoot, 'client/openapi-types.ts'), 'utf8')).not.toMatch(/["']\/dashboard/);
    // Nor its section, and nothing of the reference names it.
    expect(committed).not.toMatch(/\/dashboard\b|"Dashboard"/);
  });

  // openapi-typescript needs TypeScript 5's compiler API, which the project's TypeScript 7 does not
  // have, so `npm run openapi:client` runs a pinned copy of both through npm exec (from the registry,
  // cached after the first run) instead of a dev dependency.
  it('has its typed client generated from the committed document (run `npm run openapi`)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pps-client-'));
    try {
      const output = join(folder, 'openapi-types.ts');
      await promisify(execFile)('npm', ['run', '--silent', 'openapi:client', '--', '-o', output], {
        cwd: projectRoot,
      });
      expect(readFileSync(output, 'utf8')).toBe(
        readFileSync(join(projectRoot, 'client/openapi-types.ts'), 'utf8'),
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 180_000);

  it('describes no endpoint that is not declared (a renamed endpoint would lose its description)', () => {
    const names = new Set<string>(endpointEntries.map(([name]) => name));
    expect(Object.keys(endpointDescriptions).filter((name) => !names.has(name))).toEqual([]);
  });

  it('has every declared method and path but the dashboard’s, and every webhook event', () => {
    const document = JSON.parse(committed);
    for (const [name, route] of endpointEntriesFor('integrators')) {
      expect(document.paths[route.path]?.[route.method.toLowerCase()]?.operationId, name).toBe(name);
    }
    expect(Object.keys(document.webhooks)).toEqual(Object.keys(webhookEvents));
  });

  it('leaves no declared endpoint out of both documents', () => {
    const described = new Set(
      [JSON.parse(committed), JSON.parse(committedDashboard)].flatMap((document: Body) =>
        Object.values(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
          (item) => Object.values(item).map((operation) => operation.operationId),
        ),
      ),
    );
    expect(endpointEntries.map(([name]) => name).filter((name) => !described.has(name))).toEqual([]);
  });

  it('publishes each JSON endpoint’s own success status: 200, or the 201 a refund’s create declares', () => {
    const document = JSON.parse(committed);
    for (const [name, route] of endpointEntriesFor('integrators')) {
      if (!('response' in route)) continue;
      const statuses = Object.keys(document.paths[route.path][route.method.toLowerCase()].responses);
      const success = String(route.status ?? 200);
      expect(
        statuses.filter((status) => status.startsWith('2')),
        name,
      ).toEqual([success]);
    }
    expect(document.paths['/partner_api/refunds'].post.responses['201']).toBeDefined();
  });

  it('passes the Redocly linter (recommended rules) with no error', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: committed, absoluteRef: openApiDocumentPath, config });
    expect(described(problems)).toEqual([]);
    // Loading the rules takes seconds on a busy machine.
  }, 30_000);

  it('has examples that its own schemas accept', () => {
    const document = JSON.parse(committed);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (formatsPlugin as unknown as (ajv: Ajv2020) => void)(ajv);
    ajv.addSchema({ ...document, $id: 'openapi.json' });
    const schemas: [string, { examples?: unknown[] }][] = [
      ...Object.entries(document.components.schemas as Record<string, { examples?: unknown[] }>).map(
        ([name, schema]) => [`#/components/schemas/${name}`, schema] as [string, { examples?: unknown[] }],
      ),
    ];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Body>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        const pointer = `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/requestBody/content/application~1json/schema`;
        if (schema?.examples) schemas.push([pointer, schema]);
      }
    }
    const refused = schemas.flatMap(([pointer, schema]) =>
      (schema.examples ?? []).flatMap((example) => {
        const validate = ajv.compile({ $ref: `openapi.json${pointer}` });
        return validate(example) ? [] : [`${pointer}: ${ajv.errorsText(validate.errors)}`];
      }),
    );
    expect(schemas.length).toBeGreaterThan(10);
    expect(refused).toEqual([]);
  });
});

describe('the dashboard’s internal OpenAPI document', () => {
  it('is committed as the code generates it (run `npm run openapi` after changing a page)', () => {
    expect(committedDashboard).toBe(serializeOpenApiDocument(buildOpenApiDocument('dashboard')));
  });

  it('has every page of the dashboard’s, and nothing else: no key, no webhook', () => {
    const document = JSON.parse(committedDashboard);
    const pages = endpointEntriesFor('dashboard');
    expect(pages.length).toBeGreaterThan(40);
    for (const [name, route] of pages) {
      expect(document.paths[route.path]?.[route.method.toLowerCase()]?.operationId, name).toBe(name);
    }
    expect(Object.keys(document.paths).filter((path) => !isDashboardPath(path))).toEqual([]);
    expect(document.webhooks).toBeUndefined();
    expect(document.components?.securitySchemes).toBeUndefined();
  });

  it('passes the Redocly linter (recommended rules) with no error', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: committedDashboard,
      absoluteRef: openApiDocumentPaths.dashboard,
      config,
    });
    expect(described(problems)).toEqual([]);
    // Loading the rules takes seconds on a busy machine.
  }, 30_000);
});
