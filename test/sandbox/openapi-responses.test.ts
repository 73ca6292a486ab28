/**
 * One scenario that calls every operation of the specification (all 77) on a demo sandbox over raw
 * HTTP and validates EVERY 200 body against the response schema of that operation in the
 * service's own OpenAPI document (ajv). The document's object schemas are closed for the check
 * (`additionalProperties: false` where it says nothing), so a field the contract does not know
 * fails as surely as a wrong type.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { FormData, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/planning/endpoints.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { makePng } from '../helpers/planning-mock.js';
import { readSharedJson } from '../helpers/shared.js';

type JsonSchema = { [key: string]: unknown };
interface OpenApi {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, JsonSchema> }>>;
  components: { schemas: Record<string, JsonSchema> };
}

const openapi = readSharedJson<OpenApi>('contract/openapi.json');

/** OpenAPI 3.0 → JSON Schema: `nullable`, local refs, closed objects. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const { nullable, $ref, ...rest } = node as JsonSchema;
  if (typeof $ref === 'string') return { $ref: $ref.replace('#/components/schemas/', '#/definitions/') };
  const out: JsonSchema = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, toJsonSchema(v)]));
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  if (nullable !== true) return out;
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return { anyOf: [{ type: 'null' }, out] };
}

function responseValidators(doc: OpenApi): Map<string, ValidateFunction> {
  const ajv = new Ajv({ allErrors: true });
  // ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
  (formats as unknown as { default: (ajv: Ajv) => void }).default(ajv);
  // OpenAPI's own format and documentation keywords: declared, so every other strict check stays on.
  ajv.addFormat('float', true);
  for (const keyword of ['example', 'x-additionalPropertiesName']) ajv.addKeyword({ keyword });
  const definitions = toJsonSchema(doc.components.schemas);
  const validators = new Map<string, ValidateFunction>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      const content = op.responses?.['200']?.content as Record<string, { schema: JsonSchema }> | undefined;
      const schema = content?.['application/json']?.schema;
      if (!op.operationId || !schema) continue;
      validators.set(op.operationId, ajv.compile({ ...(toJsonSchema(schema) as JsonSchema), definitions }));
    }
  }
  return validators;
}

/** The few fields the walk reads back to go on (every body is validated whole by ajv). */
interface Answer {
  id: string;
  url: string;
  serviceToken: string;
  channels: { id: string }[];
  pricePlans: { id: string }[];
}

describe.skipIf(!openapi)('every operation answers bodies that match openapi.json', () => {
  let sandbox: Sandbox;
  let validators: Map<string, ValidateFunction>;
  const covered = new Set<string>();
  const mismatches: string[] = [];

  beforeAll(async () => {
    validators = responseValidators(openapi as OpenApi);
    sandbox = await startSandbox({ seed: 'demo' });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  /** Calls an operation by its OpenAPI id, expects 200, validates the body, returns it. */
  async function hit(
    operationId: string,
    params: Record<string, string> = {},
    options: { token?: string; query?: Record<string, string>; json?: unknown; form?: FormData } = {},
  ): Promise<Answer> {
    const op = operations.find((o) => o.def.operationId === operationId);
    if (!op) throw new Error(`no operation ${operationId} in the endpoint table`);
    const path = op.def.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`${operationId}: missing ${name}`);
      return encodeURIComponent(value);
    });
    const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.token ?? sandbox.ownerToken}`,
    };
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    const answer = await request(`${sandbox.url}${path}${query}`, {
      method: op.def.method,
      headers,
      body: options.json !== undefined ? JSON.stringify(options.json) : options.form,
    });
    const text = await answer.body.text();
    expect({ operationId, status: answer.statusCode, text }).toEqual({ operationId, status: 200, text });
    const body = JSON.parse(text);
    const validate = validators.get(operationId);
    if (!validate) throw new Error(`${operationId}: no 200 schema in openapi.json`);
    if (!validate(body)) mismatches.push(`${operationId}: ${JSON.stringify(validate.errors, null, 1)}`);
    covered.add(operationId);
    return body as Answer;
  }

  it('walks all 77 operations', async () => {
    // Billing
    const plans = await hit('billingPlanList');
    const planId = plans.pricePlans[0]!.id;
    const checkout = await hit('billingPlanCheckout', { pricePlanId: planId }, { query: { darkMode: '1' } });
    expect(await hit('billingSubscriptionRead')).toBeNull();
    await (await request(checkout.url)).body.text();
    await hit('billingSubscriptionRead');
    await hit('billingSubscriptionUpdate', { pricePlanId: plans.pricePlans[2]!.id });
    await hit('billingInvoiceList');
    await hit('billingSubscriptionCancel');

    // Account
    await hit('accountRead');
    await hit('accountUpdate', {}, { json: { userName: 'Ada King' } });
    const form = new FormData();
    form.set('avatar', new Blob([makePng(256, 256)], { type: 'image/png' }), 'avatar.png');
    await hit('accountAvatar', {}, { form });

    // Service accounts
    const bot = await hit('serviceAccountCreate', {}, { json: { roleOrg: 'member', userName: 'Walk bot' } });
    await hit('serviceAccountList');
    await hit('serviceAccountRead', { accountId: bot.id });
    await hit('serviceAccountUpdate', { accountId: bot.id }, { json: { userName: 'Walk bot 2' } });
    await hit('serviceAccountClose', { accountId: bot.id });
    const reopened = await hit('serviceAccountRegenerate', { accountId: bot.id });
    await hit('accountClose', {}, { token: reopened.serviceToken });

    // Teams and channels
    const team = await hit('teamCreate', {}, { json: { teamName: 'Walkers' } });
    const teamId = team.id;
    await hit('teamListAll');
    await hit('teamRead', { teamId });
    await hit('teamUpdate', { teamId }, { json: { teamName: 'Walkers United' } });
    const withChannel = await hit(
      'channelCreate',
      { teamId },
      { json: { channelName: 'Trail', channelDesc: 'Hikes' } },
    );
    const channelId = withChannel.channels[1]!.id;
    await hit('channelUpdate', { teamId, channelId }, { json: { channelDesc: 'Long hikes' } });
    await hit('teamAssign', { teamId, userId: sandbox.memberId });
    await hit('channelAssign', { teamId, channelId, userId: sandbox.memberId });
    await hit('channelAssign', { teamId, channelId, userId: sandbox.ownerId });
    await hit('channelListMembers', { teamId, channelId });
    await hit('channelListProspects', { teamId, channelId }, { query: { userName: '*a*' } });
    await hit('teamListUser', { userId: sandbox.memberId });

    // Notions
    const notion = await hit('notionCreate', {}, { json: { value: 'orienteering' } });
    const notionId = notion.id;
    await hit('notionSearch', {}, { query: { searchTerm: 'orient' } });
    await hit('notionRead', { notionId });
    await hit('notionUpdate', { notionId }, { json: { value: 'Orienteering' } });

    // Features, assumptions, tasks
    const member = sandbox.memberToken;
    const feature = await hit(
      'featureCreate',
      { teamId, channelId },
      {
        token: member,
        json: { heading: 'Trail maps', details: 'Offline maps', focus: 'utilitas', priority: 3 },
      },
    );
    const F = { teamId, channelId, featureId: feature.id };
    await hit('featureUpdate', F, { token: member, json: { priority: 4 } });
    const assm = await hit('assumptionCreate', F, {
      token: member,
      json: { heading: 'Hikers want offline maps' },
    });
    const spare = await hit('assumptionCreate', F, { token: member, json: { heading: 'To delete' } });
    await hit(
      'assumptionUpdate',
      { ...F, assmId: assm.id },
      { token: member, json: { heading: 'Hikers need offline maps' } },
    );
    await hit('assumptionDelete', { ...F, assmId: spare.id }, { token: member });
    await hit('assumptionList', F, { token: member });
    await hit('featureAdvance', F, { token: member });
    await hit(
      'assumptionExperiment',
      { ...F, assmId: assm.id },
      { token: member, json: { state: 'done', confirmed: true, details: 'Asked 20 hikers' } },
    );
    await hit('featureAdvance', F, { token: member });
    const task = await hit('taskCreate', F, {
      token: member,
      json: { heading: 'Tile cache', details: 'Cache map tiles' },
    });
    const T = { ...F, taskId: task.id };
    await hit('taskUpdate', T, { token: member, json: { notionIds: [notionId], state: 'in progress' } });
    await hit('taskAssign', { ...T, userId: sandbox.memberId }, { token: member });
    await hit('taskListCandidates', T, { token: member });
    const discovery = await hit('taskDiscoveryCreate', T, {
      token: member,
      json: { details: 'Tiles are 20 MB per area' },
    });
    await hit(
      'taskDiscoveryUpdate',
      { ...T, discoveryId: discovery.id },
      { token: member, json: { details: 'Tiles are 25 MB per area' } },
    );
    const feedback = await hit('taskFeedbackCreate', T, {
      json: { message: 'Compress the tiles', issue: 'complexity' },
    });
    await hit(
      'taskFeedbackUpdate',
      { ...T, feedbackId: feedback.id },
      { json: { message: 'Compress the tiles, please' } },
    );
    await hit(
      'taskFeedbackReply',
      { ...T, feedbackId: feedback.id },
      { token: member, json: { reply: 'Done with WebP' } },
    );
    await hit('taskRead', T, { token: member });
    await hit('taskList', F, { token: member });
    const extraTask = await hit('taskCreate', F, { token: member, json: { heading: 'Scratch' } });
    await hit('taskDiscoveryDelete', { ...T, discoveryId: discovery.id }, { token: member });
    await hit('taskFeedbackDelete', { ...T, feedbackId: feedback.id });
    await hit('taskDelete', { ...F, taskId: extraTask.id }, { token: member });
    await hit('taskUpdate', T, { token: member, json: { state: 'done' } });
    await hit('featureList', { teamId, channelId }, { query: { stage: 'execution' } });
    await hit('featureRead', F);
    await hit('featureAdvance', F, { token: member });
    const scratch = await hit(
      'featureCreate',
      { teamId, channelId },
      { token: member, json: { heading: 'Scratch feature' } },
    );
    await hit('featureDelete', { teamId, channelId, featureId: scratch.id }, { token: member });

    // Experiences
    await hit('experienceEvaluate', { notionId, grade: '7' }, { token: member });
    await hit('experienceEvaluatePeer', { notionId, grade: '8', userId: sandbox.memberId });
    await hit('experienceList', {}, { token: member });
    await hit('experienceListPeer', { userId: sandbox.memberId });
    await hit('experienceRead', { notionId }, { token: member });
    await hit('experienceReadPeer', { notionId, userId: sandbox.memberId });
    await hit('accountEventsList', {}, { token: member, query: { aggregate: '0' } });

    // Invitations
    const inv = await hit(
      'invitationCreate',
      {},
      { json: { teamId, inviteName: 'Guides', inviteExpireDays: 7, inviteUsesMax: 3 } },
    );
    await hit('invitationList');
    await hit('invitationRead', { inviteId: inv.id });
    await hit('invitationUpdate', { inviteId: inv.id }, { json: { inviteOrgRole: 'admin' } });
    const outside = await sandbox.createOrganization('Guides Inc');
    await hit('invitationAccept', { inviteId: inv.id }, { token: outside.memberToken });
    await hit('invitationDelete', { inviteId: inv.id });

    // Deep context, then the deletions that would have cut the walk short
    await hit('deepContextSearch', {}, { query: { searchTerm: 'trail' } });
    await hit('deepContextRead', { featureId: feature.id });
    await hit('deepContextDelete', { featureId: feature.id });
    await hit('notionDelete', { notionId });
    await hit('channelUnassign', { teamId, channelId, userId: sandbox.ownerId });
    await hit('teamUnassign', { teamId, userId: sandbox.memberId });
    await hit('channelDelete', { teamId, channelId });
    await hit('teamDelete', { teamId });

    expect(mismatches).toEqual([]);
    expect(covered.size).toBe(77);
    expect([...covered].sort()).toEqual(operations.map((o) => o.def.operationId).sort());
  });
});
