import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planningAccessFor } from '../../src/digest/access.js';
import { type Bench, link, openBench } from '../helpers/digest-bench.js';

/** An unsigned JWT carrying `org_id`, the shape of the service's tokens. */
const jwt = (orgId: string, who: string) =>
  `${[{ alg: 'HS256' }, { org_id: orgId, sub: who }]
    .map((p) => Buffer.from(JSON.stringify(p)).toString('base64url'))
    .join('.')}.c2ln`;

describe('planningAccessFor: which token reads the digest', () => {
  let bench: Bench;
  const adminOfWorkspace = jwt('org-ws', 'ws-admin');
  const adminOfEnv = jwt('org-env', 'env-admin');
  const creator = jwt('org-creator', 'creator');

  beforeEach(async () => {
    bench = await openBench('sqlite');
    bench.experiences.set(adminOfWorkspace, [{ id: 'seen-by-ws-admin' }]);
    bench.experiences.set(adminOfEnv, [{ id: 'seen-by-env-admin' }]);
    bench.experiences.set(creator, [{ id: 'seen-by-creator' }]);
    await bench.store.identities.save({
      workspaceId: 'T1',
      slackUserId: 'U1',
      serviceAccountId: 'sa-1',
      planningUserId: 'p-1',
      orgId: 'org-creator',
      token: creator,
      origin: 'provisioned',
    });
  });
  afterEach(() => bench.close());

  const whoReads = async (adminToken?: string) => {
    const channel = await link(bench, 'C1');
    const access = await planningAccessFor({
      store: bench.store,
      clients: bench.clients,
      adminToken,
    })(channel);
    if (!access) return undefined;
    const page = await access.client.experiences.list();
    return { orgId: access.orgId, reader: page.experiences[0]?.id };
  };

  it("prefers the workspace's admin token", async () => {
    await bench.store.workspaces.setAdminToken('T1', adminOfWorkspace, 'org-ws');
    expect(await whoReads(adminOfEnv)).toEqual({ orgId: 'org-ws', reader: 'seen-by-ws-admin' });
  });

  it('then PLANNING_ADMIN_TOKEN', async () => {
    expect(await whoReads(adminOfEnv)).toEqual({ orgId: 'org-env', reader: 'seen-by-env-admin' });
  });

  it("then the link creator's own token, while it is valid", async () => {
    expect(await whoReads()).toEqual({ orgId: 'org-creator', reader: 'seen-by-creator' });
    await bench.store.identities.markInvalid('T1', 'U1', 'auth-api-expired');
    expect(await whoReads()).toBeUndefined();
  });
});
