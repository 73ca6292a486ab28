/**
 * Additional authenticated data for every encrypted column, in one place: a ciphertext only
 * decrypts in the row it was written for, so one copied into another workspace's or user's row
 * fails instead of handing over someone else's token. Repositories and re-encryption both use it.
 */
export const aad = {
  installation: (workspaceId: string) => `installation:${workspaceId}`,
  installationUser: (workspaceId: string, slackUserId: string) =>
    `installation-user:${workspaceId}:${slackUserId}`,
  workspaceAdmin: (workspaceId: string) => `workspace-admin:${workspaceId}`,
  identity: (workspaceId: string, slackUserId: string) => `identity:${workspaceId}:${slackUserId}`,
  accountClosure: (workspaceId: string, serviceAccountId: string) =>
    `account-closure:${workspaceId}:${serviceAccountId}`,
};
