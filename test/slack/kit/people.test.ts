import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { peopleOf, slackUserOf } from '../../../src/slack/kit/people.js';
import { createKeyring, type IdentityInput, openStore, type Store } from '../../../src/store/index.js';

const identity = (workspaceId: string, slackUserId: string, planningUserId: string): IdentityInput => ({
  workspaceId,
  slackUserId,
  serviceAccountId: planningUserId,
  planningUserId,
  orgId: 'org-1',
  token: `token-${workspaceId}-${slackUserId}`,
  origin: 'provisioned',
});

describe('peopleOf: planning users as Slack users', () => {
  let store: Store;
  let lookups: string[][];

  beforeEach(async () => {
    store = await openStore({
      sqliteFile: ':memory:',
      keyring: createKeyring({ current: randomBytes(32).toString('base64') }),
    });
    await store.identities.save(identity('T1', 'U1', 'ana'));
    await store.identities.save(identity('T1', 'U2', 'bo'));
    await store.identities.save(identity('T1', 'U4', 'shared'));
    await store.identities.save(identity('T1', 'U3', 'shared')); // one account pasted by two people
    await store.identities.save(identity('T2', 'U9', 'cy')); // another workspace's person
    lookups = [];
    const find = store.identities.findByPlanningUsers.bind(store.identities);
    store.identities.findByPlanningUsers = (workspaceId, ids) => {
      lookups.push([...ids]);
      return find(workspaceId, ids);
    };
  });
  afterEach(() => store.close());

  it('resolves many ids with one store query; unknown and missing ids have no Slack user', async () => {
    const people = await peopleOf({ store }, 'T1', ['bo', undefined, 'ana', 'nobody', 'bo', 'shared']);
    expect(lookups).toEqual([['bo', 'ana', 'nobody', 'shared']]);
    expect(people.slackUserOf('ana')).toBe('U1');
    expect(people.slackUserOf('bo')).toBe('U2');
    expect(people.slackUserOf('nobody')).toBeUndefined();
    expect(people.slackUserOf(undefined)).toBeUndefined();
    // Several people acting as one account: the first by Slack id is shown; all of them are known.
    expect(people.slackUserOf('shared')).toBe('U3');
    expect(people.everyoneActingAs('shared')).toEqual(['U3', 'U4']);
    expect(people.everyoneActingAs('nobody')).toEqual([]);
    expect(people.asRecord()).toEqual({ bo: 'U2', ana: 'U1', shared: 'U3' });
  });

  it("never answers with another workspace's people", async () => {
    const people = await peopleOf({ store }, 'T1', ['cy']);
    expect(people.slackUserOf('cy')).toBeUndefined();
    expect(people.asRecord()).toEqual({});
    expect(await slackUserOf({ store }, 'T2', 'cy')).toBe('U9');
    expect(await slackUserOf({ store }, 'T2', 'ana')).toBeUndefined();
  });

  it('asks the store nothing when there is nobody to resolve', async () => {
    const people = await peopleOf({ store }, 'T1', [undefined, '']);
    expect(lookups).toEqual([]);
    expect(people.asRecord()).toEqual({});
    expect(await slackUserOf({ store }, 'T1', undefined)).toBeUndefined();
    expect(lookups).toEqual([]);
  });
});
