/**
 * Walks every operation of the specification through the real client against the service's own
 * OpenAPI document: method, path, path parameter order, query names, body content type, body keys,
 * required fields and limits — each observed on the request the client actually sends (undici
 * MockAgent), and each limit probed on both sides of its boundary. The mock answers with an example
 * built from the operation's 200 schema, so the result models are checked against it too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type EndpointDef, operations } from '../../src/planning/endpoints.js';
import { InvalidArgumentError } from '../../src/planning/index.js';
import { type MockService, makePng, mockService, ORIGIN } from '../helpers/planning-mock.js';
import { readSharedJson } from '../helpers/shared.js';

// ---------------------------------------------------------------------------------------------
// The OpenAPI document
// ---------------------------------------------------------------------------------------------

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  nullable?: boolean;
  example?: unknown;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  /** Some parameters carry their enum beside the schema. */
  enum?: unknown[];
}
interface Operation {
  operationId: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
interface OpenApi {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const openapi = readSharedJson<OpenApi>('contract/openapi.json');

/** Areas of the service that the specification leaves out of scope. */
const OUT_OF_SCOPE_TAGS = new Set(['Organizations', 'Users']);
const HTTP_METHODS = new Set(['get', 'post', 'put', 'delete']);

interface SpecOperation {
  method: string;
  path: string;
  op: Operation;
}

function specOperations(doc: OpenApi): Map<string, SpecOperation> {
  const byId = new Map<string, SpecOperation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method) || op.tags.some((tag) => OUT_OF_SCOPE_TAGS.has(tag))) continue;
      byId.set(op.operationId, { method: method.toUpperCase(), path, op });
    }
  }
  return byId;
}

function resolve(doc: OpenApi, schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = doc.components.schemas[name];
  if (!target) throw new Error(`unresolved ${schema.$ref}`);
  return resolve(doc, target);
}

/** A value of `schema` as the service would send it: its examples where they fit the type. */
function example(doc: OpenApi, raw: Schema, depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => example(doc, s, depth)));
  const alternative = (schema.oneOf ?? schema.anyOf)?.[0];
  if (alternative) return example(doc, alternative, depth);
  if (schema.enum) return schema.enum[0];
  const fits = (v: unknown) =>
    (schema.type === 'string' && typeof v === 'string') ||
    ((schema.type === 'integer' || schema.type === 'number') && typeof v === 'number') ||
    (schema.type === 'boolean' && typeof v === 'boolean');
  if (fits(schema.example)) return schema.example;
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, example(doc, value, depth + 1)]),
      );
    case 'array':
      return depth > 6 || !schema.items ? [] : [example(doc, schema.items, depth + 1)];
    case 'string':
      return schema.format === 'date-time' ? '2025-01-01T00:00:00.000Z' : 'text';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Where the client is deliberately stricter than the OpenAPI document
// ---------------------------------------------------------------------------------------------

/**
 * The document marks almost no payload field as required and gives a few fields no limits. The
 * client requires what an operation cannot do without, and applies the limits NOTES.md states.
 * Each entry is checked as the client's expected behaviour, so a drift on either side fails.
 */
const STRICTER: Record<string, Constraints> = {
  'accountUpdate.userName': { required: true, minLength: 3, maxLength: 64 }, // NOTES: userName 3–64
  'accountAvatar.avatar': { required: true }, // an upload without a file means nothing
  'featureCreate.heading': { required: true },
  'featureCreate.priority': { type: 'integer' }, // NOTES: priority(1–10), a rank
  'featureUpdate.priority': { type: 'integer' },
  'taskCreate.heading': { required: true },
  'taskDiscoveryCreate.details': { required: true },
  'taskDiscoveryUpdate.details': { required: true }, // its only field
  'taskFeedbackCreate.message': { required: true },
  'taskFeedbackReply.reply': { required: true },
  'assumptionCreate.heading': { required: true },
  'notionCreate.value': { required: true },
  'channelCreate.channelName': { required: true },
  'invitationCreate.teamId': { minLength: 1 }, // an id
  'invitationUpdate.teamId': { minLength: 1 },
  'notionSearch.searchTerm': { maxLength: 256 },
  'deepContextSearch.searchTerm': { maxLength: 256 },
  'channelListProspects.userName': { maxLength: 64 }, // a user name is at most 64
};

/** `required` names that are not properties of the payload: mistakes of the document itself. */
const OPENAPI_DEFECTS: Record<string, string[]> = {
  channelCreate: ['teamName'],
  channelUpdate: ['teamName'],
};

interface Constraints {
  type?: string;
  required?: boolean;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

function constraintsOf(doc: OpenApi, key: string, schema: Schema, required: boolean): Constraints {
  const s = resolve(doc, schema);
  const { type, minLength, maxLength, minimum, maximum } = s;
  return { type, required, enum: s.enum, minLength, maxLength, minimum, maximum, ...STRICTER[key] };
}

/** Values on both sides of every limit: `[value, accepted]`. */
function probes(c: Constraints): [unknown, boolean][] {
  const out: [unknown, boolean][] = [];
  if (c.enum) {
    for (const value of c.enum) out.push([value, true]);
    const numeric = c.enum.every((v) => typeof v === 'number');
    out.push([numeric ? Math.max(...(c.enum as number[])) + 1 : 'not-in-the-enum', false]);
    return out;
  }
  switch (c.type) {
    case 'string': {
      const min = c.minLength ?? 0;
      out.push(min > 0 ? ['x'.repeat(min - 1), false] : ['', true], ['x'.repeat(Math.max(min, 1)), true]);
      out.push(c.maxLength === undefined ? ['x'.repeat(3_000), true] : ['x'.repeat(c.maxLength), true]);
      if (c.maxLength !== undefined) out.push(['x'.repeat(c.maxLength + 1), false]);
      out.push([42, false]);
      break;
    }
    case 'integer':
    case 'number': {
      const low = c.minimum ?? -1_000;
      out.push([low, true], [c.maximum ?? 1_000_000, true], [low + 0.5, c.type === 'number']);
      if (c.minimum !== undefined) out.push([c.minimum - 1, false]);
      if (c.maximum !== undefined) out.push([c.maximum + 1, false]);
      out.push(['1', false]);
      break;
    }
    case 'boolean':
      out.push([true, true], [false, true], ['yes', false]);
      break;
    case 'array':
      out.push([['a', 'b'], true], [[], true], ['a', false]);
      break;
  }
  return out;
}

function validValue(c: Constraints): unknown {
  const accepted = probes(c).find(([, ok]) => ok);
  if (!accepted) throw new Error(`no valid value for ${JSON.stringify(c)}`);
  return accepted[0];
}

// ---------------------------------------------------------------------------------------------
// The walk
// ---------------------------------------------------------------------------------------------

type AnyMethod = (...args: unknown[]) => PromiseLike<unknown>;

/** Stands in for an absent document: vitest runs a skipped suite's body too, to collect its tests. */
const ABSENT: OpenApi = {
  servers: [{ url: 'http://absent.invalid/v1' }],
  paths: {},
  components: { schemas: {} },
};

describe.skipIf(!openapi)('the client against openapi.json', () => {
  const doc = openapi ?? ABSENT;
  const spec = specOperations(doc);
  const serverPath = new URL(doc.servers[0]?.url ?? '').pathname.replace(/\/$/, '');

  let service: MockService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it('has the 77 operations of the specification, and the table covers every one', () => {
    expect(operations).toHaveLength(77);
    expect(spec.size).toBe(77);
    const inTable = new Set(operations.map((o) => o.def.operationId));
    expect([...spec.keys()].filter((id) => !inTable.has(id))).toEqual([]);
    expect(serverPath).toBe('/v1');
  });

  it.each(operations.map((o) => [o.operation, o] as const))('%s', async (_, ref) => {
    const def: EndpointDef = ref.def;
    const found = spec.get(def.operationId);
    expect(found, `${def.operationId} is not in openapi.json`).toBeDefined();
    const { method, path, op } = found as SpecOperation;
    const id = def.operationId;

    // The table, read directly.
    expect(def.method).toBe(method);
    expect(def.path).toBe(path);

    const params = op.parameters ?? [];
    const pathNames = params.filter((p) => p.in === 'path').map((p) => p.name);
    expect([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])).toEqual(pathNames);
    const queryParams = params.filter((p) => p.in === 'query');
    const queryNames = queryParams.map((p) => p.name).sort();
    const tableQuery = def.query ? Object.keys((def.query as unknown as { shape: object }).shape).sort() : [];
    expect(tableQuery).toEqual(queryNames);
    // A list (it pages) is exactly an operation with a pageNumber, and pages over its array.
    expect(def.items !== undefined).toBe(queryNames.includes('pageNumber'));

    const success = op.responses['200']?.content?.['application/json']?.schema;
    expect(success, `${id} has no JSON 200 answer`).toBeDefined();
    const result = resolve(doc, success as Schema);
    if (def.items) expect(resolve(doc, result.properties?.[def.items] ?? {}).type).toBe('array');

    // What goes in, per the document.
    const [contentType, body] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
    expect(def.multipart === true).toBe(contentType === 'multipart/form-data');
    expect(def.body !== undefined).toBe(contentType !== undefined);
    expect(def.query !== undefined).toBe(queryParams.length > 0);

    const bodySchema = body ? resolve(doc, body.schema) : undefined;
    const bodyProps = bodySchema?.properties ?? {};
    const requiredNames = bodySchema?.required ?? [];
    expect(requiredNames.filter((name) => !(name in bodyProps))).toEqual(OPENAPI_DEFECTS[id] ?? []);
    const fields: [string, Constraints][] = contentType
      ? Object.entries(bodyProps).map(([name, s]) => [
          name,
          constraintsOf(doc, `${id}.${name}`, s, requiredNames.includes(name)),
        ])
      : queryParams.map((p) => [
          p.name,
          constraintsOf(
            doc,
            `${id}.${p.name}`,
            { ...p.schema, ...(p.enum ? { enum: p.enum } : {}) },
            !!p.required,
          ),
        ]);

    // Through the real client.
    service = await mockService({ retries: 0, baseUrl: `${ORIGIN}${serverPath}` });
    const s = service;
    s.pool
      .intercept({ path: () => true, method: () => true })
      .reply(200, JSON.stringify(example(doc, success as Schema)))
      .persist();
    const area = (s.client as unknown as Record<string, Record<string, AnyMethod>>)[ref.area];
    const call = area?.[ref.name] as AnyMethod;

    const pathValues = pathNames.map((name) => (name === 'grade' ? 7 : `${name} #1`));
    const expectedPath =
      serverPath +
      path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        encodeURIComponent(name === 'grade' ? '7' : `${name} #1`),
      );
    const send = (input?: unknown) =>
      call(...pathValues, ...(contentType || queryParams.length ? [input] : []));

    const full =
      contentType === 'multipart/form-data'
        ? { avatar: makePng(256, 256) }
        : Object.fromEntries(
            fields.filter(([, c]) => c.type !== undefined || c.enum).map(([n, c]) => [n, validValue(c)]),
          );
    await expect(send(contentType || queryParams.length ? full : undefined)).resolves.toBeDefined();

    const sent = s.calls().at(-1);
    expect(sent?.method).toBe(method);
    expect(sent?.path).toBe(expectedPath);
    expect(Object.keys(sent?.searchParams ?? {}).sort()).toEqual(queryNames);
    if (contentType === 'application/json') {
      expect(sent?.headers).toMatchObject({ 'content-type': 'application/json' });
      expect(Object.keys(JSON.parse(sent?.body ?? '{}')).sort()).toEqual(Object.keys(bodyProps).sort());
    } else if (contentType === 'multipart/form-data') {
      const form = sent?.body as unknown as import('undici').FormData;
      expect([...form.keys()]).toEqual(Object.keys(bodyProps));
    } else {
      expect(sent?.body ?? undefined).toBeUndefined();
    }

    // Every field: required or not, and each limit from both sides.
    for (const [name, c] of fields) {
      const { [name]: _omitted, ...without } = full as Record<string, unknown>;
      const tries: [unknown, boolean, string][] = [[without, !c.required, 'omitted']];
      if (contentType !== 'multipart/form-data') {
        for (const [value, ok] of probes(c))
          tries.push([{ ...full, [name]: value }, ok, JSON.stringify(value)]);
      }
      for (const [input, ok, label] of tries) {
        const before = s.calls().length;
        const what = `${id}.${name} = ${label.slice(0, 40)}`;
        if (ok) {
          await expect(send(input), what).resolves.toBeDefined();
          expect(s.calls(), what).toHaveLength(before + 1);
          const wire = s.calls().at(-1);
          const value = (input as Record<string, unknown>)[name];
          if (value === undefined) continue;
          if (contentType) expect(JSON.parse(wire?.body ?? '{}')[name], what).toEqual(value);
          else expect(wire?.searchParams[name], what).toBe(String(value));
        } else {
          const error = await send(input).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error, what).toBeInstanceOf(InvalidArgumentError);
          expect(error, what).toMatchObject({ field: name, local: true });
          expect(s.calls(), what).toHaveLength(before);
        }
      }
    }
  });
});
