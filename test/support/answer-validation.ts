import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import dashboardDocument from '#shared/openapi/dashboard-openapi.json' with { type: 'json' };
import document from '#shared/openapi/openapi.json' with { type: 'json' };

/**
 * Checks an answer of the service against the published reference (shared/openapi/openapi.json),
 * or, for a dashboard page, against the dashboard's internal document
 * (shared/openapi/dashboard-openapi.json): its status must be one the operation publishes, and its
 * body must match that answer's schema. Requests outside both (an unknown route on purpose, the
 * local host's own endpoints) are not checked. Throws, naming the operation, what was answered and
 * what differs.
 */
interface MediaType {
  schema?: unknown;
}
interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
(formatsPlugin as unknown as (ajv: Ajv2020) => void)(ajv);
const documents = { 'openapi.json': document, 'dashboard-openapi.json': dashboardDocument };
for (const [id, each] of Object.entries(documents)) ajv.addSchema({ ...each, $id: id });

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

const operations = Object.entries(documents).flatMap(([documentId, each]) =>
  Object.entries(each.paths as Record<string, Record<string, Operation>>).flatMap(([template, item]) => {
    const pattern = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
    return Object.entries(item).map(([method, operation]) => ({
      documentId,
      template,
      pattern,
      method,
      operation,
    }));
  }),
);

/** The operation a request is for, if the reference has one. */
function operationFor(method: string, pathname: string, basePath: string) {
  const path = pathname.startsWith(basePath) ? pathname.slice(basePath.length) || '/' : pathname;
  return operations.find((entry) => entry.method === method.toLowerCase() && entry.pattern.test(path));
}

export class AnswerNotInReference extends Error {}

export function checkAnswer(input: {
  method: string;
  url: string;
  status: number;
  contentType: string | null;
  body: string;
  basePath?: string;
}): void {
  const { pathname } = new URL(input.url);
  const found = operationFor(input.method, pathname, input.basePath ?? '');
  if (!found) return;
  const { documentId, template, method, operation } = found;
  const where = `${input.method} ${pathname} (${operation.operationId})`;
  const statusKey = [String(input.status), `${String(input.status)[0]}XX`, 'default'].find(
    (key) => operation.responses[key] !== undefined,
  );
  if (!statusKey) {
    throw new AnswerNotInReference(
      `${where} answered ${input.status}, which the reference does not publish (it has ${Object.keys(operation.responses).join(', ')}): ${input.body.slice(0, 300)}`,
    );
  }
  const content = operation.responses[statusKey]?.content;
  const json = content?.['application/json'];
  if (!json?.schema) return;
  if (!input.contentType?.startsWith('application/json')) {
    throw new AnswerNotInReference(`${where} answered ${input.status} as ${input.contentType}, not JSON`);
  }
  const ref = `${documentId}#/${pointer('paths', template, method, 'responses', statusKey, 'content', 'application/json', 'schema')}`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  let body: unknown;
  try {
    body = JSON.parse(input.body);
  } catch {
    throw new AnswerNotInReference(`${where} answered ${input.status} with a body that is not JSON`);
  }
  if (!validate(body)) {
    const problems = (validate.errors ?? [])
      .map((error) => `${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`)
      .join('; ');
    throw new AnswerNotInReference(
      `${where} answered ${input.status} with a body that does not match the reference: ${problems}\n${input.body.slice(0, 500)}`,
    );
  }
}

/**
 * `fetch` that checks every answer from the service against the reference before handing it back:
 * installed for the end-to-end and browser tests, so whatever client a test uses (the test helper,
 * the typed client, a bare fetch), an answer that drifts from what is published fails the test.
 */
export function checkingFetch(original: typeof fetch): typeof fetch {
  return async (resource, init) => {
    const request = new Request(resource, init);
    const response = await original(request);
    if (request.headers.get('upgrade')) return response;
    const body = await response.clone().text();
    // After a followed redirect, the answer is the last URL's, fetched with GET.
    checkAnswer({
      method: response.redirected ? 'GET' : request.method,
      url: response.url || request.url,
      status: response.status,
      contentType: response.headers.get('content-type'),
      body,
    });
    return response;
  };
}

interface WebhookOperation {
  parameters?: { name: string; in: string; required?: boolean }[];
}

/**
 * Checks a webhook delivery against the reference's `webhooks` section: the event is published,
 * its headers and its body match what the reference says of that event. Returns what differs.
 */
export function webhookProblem(
  headers: Record<string, string | string[] | undefined>,
  body: string,
): string | undefined {
  const eventName = String(headers['svc-event']);
  const webhooks = document.webhooks as Record<string, { post: WebhookOperation }>;
  const operation = webhooks[eventName]?.post;
  if (!operation) return `event ${eventName} is not in the reference's webhooks`;
  const problems: string[] = [];
  for (const [index, parameter] of (operation.parameters ?? []).entries()) {
    const value = headers[parameter.name.toLowerCase()];
    const validate = ajv.compile({
      $ref: `openapi.json#/${pointer('webhooks', eventName, 'post', 'parameters', String(index), 'schema')}`,
    });
    if (value === undefined ? parameter.required : !validate(value))
      problems.push(`header ${parameter.name}: ${value}`);
  }
  const validate = ajv.compile({
    $ref: `openapi.json#/${pointer('webhooks', eventName, 'post', 'requestBody', 'content', 'application/json', 'schema')}`,
  });
  if (!validate(JSON.parse(body))) problems.push(`body: ${ajv.errorsText(validate.errors)}`);
  return problems.length > 0 ? `${eventName} differs from the reference: ${problems.join('; ')}` : undefined;
}
