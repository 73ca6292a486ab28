/**
 * "Let workflow steps act for me" (issue 35 item 4), on SQLite and PostgreSQL: off by default, per
 * Slack user per workspace, forgotten when the app is uninstalled there.
 */
import { expect, it } from 'vitest';
import { forEachBackend, newKeyring } from '../helpers/store-backends.js';

forEachBackend('workflow consents', (backend) => {
  it('is off by default, on and off per person per workspace, and setting it twice changes nothing', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    expect(await store.workflowConsents.allows('T1', 'U1')).toBe(false);
    await store.workflowConsents.set('T1', 'U1', true);
    await store.workflowConsents.set('T1', 'U1', true);
    expect(await store.workflowConsents.allows('T1', 'U1')).toBe(true);
    // Another person, or the same person in another workspace, is not covered by it.
    expect(await store.workflowConsents.allows('T1', 'U2')).toBe(false);
    expect(await store.workflowConsents.allows('T2', 'U1')).toBe(false);
    await store.workflowConsents.set('T1', 'U1', false);
    await store.workflowConsents.set('T1', 'U1', false);
    expect(await store.workflowConsents.allows('T1', 'U1')).toBe(false);
  });

  it('is forgotten with the workspace when the app is uninstalled there, and only there', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.workflowConsents.set('T1', 'U1', true);
    await store.workflowConsents.set('T2', 'U1', true);
    await store.installations.deleteWorkspace('T1');
    expect(await store.workflowConsents.allows('T1', 'U1')).toBe(false);
    expect(await store.workflowConsents.allows('T2', 'U1')).toBe(true);
  });
});
