/** Secrets at rest: never readable in the database, and key rotation end to end. */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { createKeyring, DecryptionError, type Keyring, type Store } from '../../src/store/index.js';
import { reencryptAll } from '../../src/store/reencrypt.js';
import { type BackendHandle, forEachBackend, newKey } from '../helpers/store-backends.js';

/** Distinctive secrets, so a match in raw bytes cannot be a coincidence. */
function secrets() {
  const tag = randomBytes(8).toString('hex');
  return {
    identity: `sa-token-${tag}`,
    admin: `admin-token-${tag}`,
    bot: `xoxb-bot-${tag}`,
    user: `xoxp-user-${tag}`,
  };
}

type Secrets = ReturnType<typeof secrets>;

async function writeSecrets(store: Store, s: Secrets) {
  await store.identities.save({
    workspaceId: 'T1',
    slackUserId: 'U1',
    serviceAccountId: 'service-account-visible-id',
    planningUserId: 'pu-1',
    orgId: 'org-1',
    token: s.identity,
    origin: 'brought',
  });
  await store.workspaces.setAdminToken('T1', s.admin, 'org-1');
  await store.installations.installationStore.storeInstallation({
    team: { id: 'T1' },
    enterprise: undefined,
    user: { id: 'U1', token: s.user, scopes: ['users:read'] },
    bot: { id: 'B1', userId: 'UB', token: s.bot, scopes: ['chat:write'] },
    isEnterpriseInstall: false,
    authVersion: 'v2',
  });
}

async function readSecrets(store: Store): Promise<Secrets> {
  const installation = await store.installations.installationStore.fetchInstallation({
    teamId: 'T1',
    enterpriseId: undefined,
    isEnterpriseInstall: false,
    userId: 'U1',
  });
  return {
    identity: (await store.identities.get('T1', 'U1'))!.token,
    admin: (await store.workspaces.get('T1'))!.adminToken!,
    bot: installation.bot!.token,
    user: installation.user.token!,
  };
}

/** Every encrypted column's raw text. */
async function rawCiphertexts(store: Store): Promise<string[]> {
  const rows = await sql<{ value: string }>`
    select token as value from identities
    union all select admin_token from workspaces
    union all select data from installations
    union all select data from installation_users`.execute(store.db);
  return rows.rows.map((r) => r.value);
}

const keyIdOf = (ciphertext: string) => ciphertext.split('.')[1];

async function reopen(backend: BackendHandle, store: Store, keyring: Keyring): Promise<Store> {
  await store.close();
  return backend.open({ keyring });
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** tsx's loader by path: the CLI may run in a folder without node_modules. */
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/**
 * Runs `npm run rotate-key`'s script as its own process with only the given keys configured: in its
 * environment, or (`dotEnv`) in a `.env` file of the folder it runs in, as `npm start` reads it.
 */
function rotateKeyCli(
  backend: BackendHandle,
  keys: { current: string; previous?: string[] },
  { dotEnv = false } = {},
) {
  const location = backend.location();
  const config = {
    NODE_ENV: 'production',
    SLACK_SIGNING_SECRET: 'signing-secret',
    SLACK_BOT_TOKEN: 'xoxb-test',
    ENCRYPTION_KEY: keys.current,
    ENCRYPTION_KEYS_PREVIOUS: (keys.previous ?? []).join(','),
    ...(location.databaseUrl
      ? { DATABASE_URL: location.databaseUrl }
      : { DATA_DIR: dirname(backend.sqliteFile()) }),
  };
  let cwd = ROOT;
  if (dotEnv) {
    cwd = mkdtempSync(join(tmpdir(), 'rotate-key-'));
    writeFileSync(
      join(cwd, '.env'),
      Object.entries(config)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n'),
    );
  }
  const env = { PATH: process.env.PATH, ...(dotEnv ? {} : config) };
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', TSX, join(ROOT, 'src/bin/rotate-key.ts')],
      { cwd, env, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (dotEnv) rmSync(cwd, { recursive: true, force: true });
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

forEachBackend('encryption at rest', (backend) => {
  it('no plaintext secret is stored; the stored text is v1 ciphertext', async () => {
    const keyring = createKeyring({ current: newKey() });
    const store = await backend.open({ keyring });
    const s = secrets();
    await writeSecrets(store, s);
    expect(await readSecrets(store)).toEqual(s);

    const raw = await rawCiphertexts(store);
    expect(raw).toHaveLength(4);
    for (const value of raw) {
      expect(value.startsWith(`v1.${keyring.currentKeyId}.`)).toBe(true);
      for (const secret of Object.values(s)) expect(value).not.toContain(secret);
    }

    if (backend.name === 'sqlite') {
      const file = backend.sqliteFile();
      const bytes = () =>
        [file, `${file}-wal`]
          .filter((f) => existsSync(f))
          .map((f) => readFileSync(f).toString('latin1'))
          .join('');
      const checks = (text: string) => {
        // The files are really read: a plain column of the same rows is there.
        expect(text).toContain('service-account-visible-id');
        for (const secret of Object.values(s)) expect(text).not.toContain(secret);
      };
      checks(bytes()); // still in the WAL
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
      checks(bytes()); // in the main file
    }
  });

  it('a wrong key fails with DecryptionError naming the missing key, never the token', async () => {
    const keyA = createKeyring({ current: newKey() });
    const s = secrets();
    let store = await backend.open({ keyring: keyA });
    await writeSecrets(store, s);
    store = await reopen(backend, store, createKeyring({ current: newKey() }));
    const error = await store.identities.get('T1', 'U1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecryptionError);
    expect((error as Error).message).toBe(
      `token was encrypted with key ${keyA.currentKeyId}, which is not configured`,
    );
    await expect(store.workspaces.get('T1')).rejects.toThrow(DecryptionError);
    await expect(
      store.installations.installationStore.fetchInstallation({
        teamId: 'T1',
        enterpriseId: undefined,
        isEnterpriseInstall: false,
      }),
    ).rejects.toThrow(DecryptionError);
  });

  it('rotation: A → (B, previous A) reads; reencryptAll moves all to B; then B alone reads all', async () => {
    const a = newKey();
    const b = newKey();
    const s = secrets();
    let store = await backend.open({ keyring: createKeyring({ current: a }) });
    await writeSecrets(store, s);

    const rotated = createKeyring({ current: b, previous: [a] });
    store = await reopen(backend, store, rotated);
    expect(await readSecrets(store)).toEqual(s);
    // New writes already use B, old rows stay on A until re-encrypted.
    await store.identities.save({ ...(await store.identities.get('T1', 'U1'))!, slackUserId: 'U2' });
    const before = (await rawCiphertexts(store)).map(keyIdOf).sort();
    expect(before).toEqual(
      [...Array(4).fill(createKeyring({ current: a }).currentKeyId), rotated.currentKeyId].sort(),
    );

    const result = await store.reencryptAll();
    expect(result).toEqual({
      rows: 4,
      byTable: { installations: 1, installation_users: 1, workspaces: 1, identities: 1, account_closures: 0 },
    });
    expect(new Set((await rawCiphertexts(store)).map(keyIdOf))).toEqual(new Set([rotated.currentKeyId]));
    expect((await store.reencryptAll()).rows).toBe(0);

    store = await reopen(backend, store, createKeyring({ current: b }));
    expect(await readSecrets(store)).toEqual(s);
    expect((await store.identities.get('T1', 'U2'))?.token).toBe(s.identity);
  });

  it('re-encrypts in batches across every page, keeping each row bound to itself', async () => {
    const a = newKey();
    let store = await backend.open({ keyring: createKeyring({ current: a }) });
    for (let i = 0; i < 23; i++) {
      await store.identities.save({
        workspaceId: `T${i % 3}`,
        slackUserId: `U${i}`,
        serviceAccountId: `sa${i}`,
        planningUserId: `pu${i}`,
        orgId: 'o',
        token: `token-${i}`,
        origin: 'provisioned',
      });
    }
    const rotated = createKeyring({ current: newKey(), previous: [a] });
    store = await reopen(backend, store, rotated);
    expect(await reencryptAll(store.db, rotated, 4)).toMatchObject({ rows: 23, byTable: { identities: 23 } });
    for (let i = 0; i < 23; i++) {
      expect((await store.identities.get(`T${i % 3}`, `U${i}`))?.token).toBe(`token-${i}`);
    }
    expect(new Set((await rawCiphertexts(store)).map(keyIdOf))).toEqual(new Set([rotated.currentKeyId]));
  });

  it('re-encryption stops at a ciphertext no key opens, saying which key it needs', async () => {
    const lost = createKeyring({ current: newKey() });
    let store = await backend.open({ keyring: lost });
    await writeSecrets(store, secrets());
    store = await reopen(backend, store, createKeyring({ current: newKey() }));
    await expect(store.reencryptAll()).rejects.toThrow(`key ${lost.currentKeyId}, which is not configured`);
  });

  it('npm run rotate-key re-encrypts under ENCRYPTION_KEY and prints counts, never a key', async () => {
    const [a, b, c] = [newKey(), newKey(), newKey()];
    const s = secrets();
    const store = await backend.open({ keyring: createKeyring({ current: a }) });
    await writeSecrets(store, s);
    await store.close();

    const idB = createKeyring({ current: b }).currentKeyId;
    // Configured through .env, as for `npm start`.
    const ok = await rotateKeyCli(backend, { current: b, previous: [a] }, { dotEnv: true });
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim()).toBe(
      `Re-encrypted 4 row(s) under key ${idB} (${backend.name}): ` +
        'installations 1, installation_users 1, workspaces 1, identities 1, account_closures 0',
    );
    const after = await backend.open({ keyring: createKeyring({ current: b }) });
    expect(await readSecrets(after)).toEqual(s);
    await after.close();

    const lost = await rotateKeyCli(backend, { current: c });
    expect(lost.code).toBe(1);
    expect(lost.stderr).toContain(`token was encrypted with key ${idB}, which is not configured`);
    for (const output of [ok.stdout + ok.stderr, lost.stdout + lost.stderr]) {
      for (const secret of [a, b, c, ...Object.values(s)]) expect(output).not.toContain(secret);
    }
  }, 60_000);
});
