/**
 * Real processes racing on one database: each starts on a fresh database (so they also migrate it
 * together), then all claim the same (link, date) pairs in a tight loop. Exactly one may win each.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { forEachBackend, newKey, newKeyring } from './backends.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/claim-race.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RACERS = 3;
const LINKS = 40;
const DATES = ['2025-01-06', '2025-01-07', '2025-01-08', '2025-01-09', '2025-01-10'];
/** A racer that has not finished by then is killed, and the test fails. */
const RACER_TIMEOUT_MS = 60_000;

interface Racer {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  done: Promise<string[]>;
}

function startRacer(args: object): Racer {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, JSON.stringify(args)], {
    cwd: ROOT,
    timeout: RACER_TIMEOUT_MS,
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.startsWith('ready\n')) resolve();
    });
    child.once('exit', () => reject(new Error(`racer exited before ready: ${stderr}`)));
  });
  const done = new Promise<string[]>((resolve, reject) => {
    child.once('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`racer failed (${code ?? signal}): ${stderr}`));
      const last = stdout.trim().split('\n').at(-1) ?? '';
      resolve((JSON.parse(last) as { won: string[] }).won);
    });
  });
  ready.catch(() => {}); // reported through `done`
  return { child, ready, done };
}

forEachBackend('digest claims raced by real processes', (backend) => {
  it(
    `${RACERS} processes, ${LINKS * DATES.length} (link, date) pairs: each pair won exactly once`,
    async () => {
      const key = newKey();
      const racers = Array.from({ length: RACERS }, (_, i) =>
        startRacer({ location: backend.location(), key, owner: `racer-${i}`, links: LINKS, dates: DATES }),
      );
      try {
        await Promise.all(racers.map((r) => r.ready));
        for (const racer of racers) racer.child.stdin.end('go\n');
        const results = await Promise.all(racers.map((r) => r.done));

        const wins = results.flat();
        const pairs = DATES.flatMap((d) => Array.from({ length: LINKS }, (_, i) => `C${i}/${d}`));
        expect(wins.sort()).toEqual(pairs.sort());
        // Every racer opened the store on the fresh database and it was migrated once.
        const store = await backend.open({ keyring: newKeyring() });
        const rows = await store.db.selectFrom('digest_claims').selectAll().execute();
        expect(rows).toHaveLength(pairs.length);
        for (const row of rows) {
          expect(row).toMatchObject({ status: 'posted', attempt: 1 });
          expect(row.message_ts).toBe(row.owner);
          expect(results[Number(row.owner.split('-')[1])]).toContain(
            `${row.slack_channel_id}/${row.local_date}`,
          );
        }
        console.info(`  ${backend.name}: wins per racer ${results.map((r) => r.length).join(' / ')}`);
      } finally {
        for (const racer of racers) racer.child.kill();
      }
    },
    RACER_TIMEOUT_MS + 30_000,
  );
});
