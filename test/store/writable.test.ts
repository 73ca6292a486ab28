/**
 * Where the SQLite store lives: DATA_DIR is created 0700 and the file 0600 (they hold tokens), and a
 * folder or file the app cannot write stops start-up with one clear line — checked against the app
 * as a real process, run as an unprivileged user when the tests run as root (root writes anywhere).
 * Under root the child starts as root and drops to `nobody` itself before its store opens
 * (fixtures/start-unprivileged.ts), so the test passes wherever the checkout is, even in a folder
 * only root can enter.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, StoreNotWritableError } from '../../src/store/index.js';
import { newKeyring } from '../helpers/store-backends.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/start-unprivileged.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'writable-'));
// The unprivileged child must be able to reach the folders below.
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const isRoot = process.getuid?.() === 0;
/** Who the child drops to under root: `nobody`. Not under root it stays this user. */
const NOBODY = 65534;

describe('the SQLite location', () => {
  it('creates DATA_DIR 0700 and the database file 0600', async () => {
    const dataDir = join(dir, 'fresh', 'data');
    const store = await openStore({ dataDir, keyring: newKeyring() });
    await store.close();
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'fresh')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'planning.sqlite')).mode & 0o777).toBe(0o600);
  });

  it('refuses a DATA_DIR that cannot be created, naming it', async () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const error = await openStore({ dataDir: join(blocker, 'data'), keyring: newKeyring() }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreNotWritableError);
    expect((error as Error).message).toContain(join(blocker, 'data'));
  });
});

/** Runs the app until it listens or exits; returns its exit code (undefined: it listened) and stderr. */
function startProcess(dataDir: string) {
  // Started as this user (root or not): it loads the app while it can still read the checkout.
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, String(NOBODY)], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      PLANNING_API_URL: 'http://127.0.0.1:9/v1',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_BOT_TOKEN: 'xoxb-writable-test',
      // Refused at once (nothing listens on port 9): a start-up that gets that far fails on Slack.
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'error',
    },
    timeout: 120_000,
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stderr })),
  );
}

describe('start-up where the store cannot be written (a real process)', () => {
  it('a DATA_DIR it cannot write: exits 1 with one line naming the folder', async () => {
    const dataDir = join(dir, 'locked-dir');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o555);
    const { code, stderr } = await startProcess(dataDir);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^Start-up failed: The data folder .*locked-dir cannot be written/),
    ]);
  }, 150_000);

  it('a database file it cannot write: exits 1 with one line naming the file', async () => {
    const dataDir = join(dir, 'locked-file');
    // A store made by someone else (root when the tests run as root), readable but not writable.
    const store = await openStore({ dataDir, keyring: newKeyring() });
    await store.close();
    const file = join(dataDir, 'planning.sqlite');
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    chmodSync(file, 0o444);
    chmodSync(dataDir, 0o777);
    if (isRoot) chownSync(dataDir, NOBODY, NOBODY);
    const { code, stderr } = await startProcess(dataDir);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^Start-up failed: The SQLite file .*planning\.sqlite cannot be written/),
    ]);
  }, 150_000);
});
