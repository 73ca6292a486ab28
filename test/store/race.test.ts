/**
 * Real processes racing on one database. They start together on a fresh database (so they also
 * migrate it together); then, in lockstep, every racer claims the same (link, date) at the same
 * moment, key after key; then all claim further dates in a tight loop. Each key has one winner.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { migrations } from '../../src/store/migrate.js';
import { forEachBackend, newKey, newKeyring } from '../helpers/store-backends.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/claim-race.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RACERS = 3;
/** Processes started together on a fresh database: they must not trip over each other's migration. */
const STARTERS = 8;
const LINKS = 40;
const LOCKSTEP_DATES = ['2025-01-06', '2025-01-07'];
const LOOP_DATES = ['2025-01-08', '2025-01-09', '2025-01-10'];
/** A racer still running by then is killed, and the test fails. */
const RACER_TIMEOUT_MS = 90_000;

/** A child process spoken to a line at a time. */
class Racer {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: AsyncIterator<string>;
  private stderr = '';

  constructor(args: object) {
    this.child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, JSON.stringify(args)], {
      cwd: ROOT,
      timeout: RACER_TIMEOUT_MS,
    });
    this.child.stderr.on('data', (chunk) => {
      this.stderr += chunk;
    });
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }

  /** Waits until every racer has loaded, then lets them all open the store at once. */
  static async openTogether(racers: Racer[]): Promise<void> {
    expect(await Promise.all(racers.map((r) => r.next()))).toEqual(Array(racers.length).fill('loaded'));
    for (const racer of racers) racer.send('open');
    expect(await Promise.all(racers.map((r) => r.next()))).toEqual(Array(racers.length).fill('ready'));
  }

  send(command: string): void {
    this.child.stdin.write(`${command}\n`);
  }

  async next(): Promise<string> {
    const { value, done } = await this.lines.next();
    if (done) throw new Error(`racer ended early (exit ${this.child.exitCode}): ${this.stderr}`);
    return value;
  }
}

const keysOf = (dates: string[]) =>
  dates.flatMap((d) => Array.from({ length: LINKS }, (_, i) => `C${i}/${d}`));

forEachBackend('digest claims raced by real processes', (backend) => {
  it(
    `${STARTERS} processes opening one fresh database together all migrate it and start`,
    async () => {
      const key = newKey();
      const starters = Array.from(
        { length: STARTERS },
        (_, i) =>
          new Racer({ location: backend.location(), key, owner: `starter-${i}`, links: 0, loopDates: [] }),
      );
      try {
        await Racer.openTogether(starters);
        for (const starter of starters) starter.send('exit');
        const store = await backend.open({ keyring: newKeyring() });
        const applied = await store.db
          .selectFrom('kysely_migration' as never)
          .selectAll()
          .execute();
        expect(applied).toHaveLength(Object.keys(migrations).length);
      } finally {
        for (const starter of starters) starter.child.kill();
      }
    },
    RACER_TIMEOUT_MS + 30_000,
  );

  it(
    `${RACERS} processes claim ${LINKS * (LOCKSTEP_DATES.length + LOOP_DATES.length)} (link, date) keys: one winner each`,
    async () => {
      const key = newKey();
      const racers = Array.from(
        { length: RACERS },
        (_, i) =>
          new Racer({
            location: backend.location(),
            key,
            owner: `racer-${i}`,
            links: LINKS,
            loopDates: LOOP_DATES,
          }),
      );
      try {
        await Racer.openTogether(racers);
        const wins: string[][] = racers.map(() => []);

        for (const claimKey of keysOf(LOCKSTEP_DATES)) {
          for (const racer of racers) racer.send(`claim ${claimKey.replace('/', ' ')}`);
          const answers = await Promise.all(racers.map((r) => r.next()));
          expect(answers.filter((a) => a === `won ${claimKey}`)).toHaveLength(1);
          expect(answers.filter((a) => a === `lost ${claimKey}`)).toHaveLength(RACERS - 1);
          wins[answers.indexOf(`won ${claimKey}`)]!.push(claimKey);
        }
        const lockstepWins = wins.map((w) => w.length);

        for (const racer of racers) racer.send('loop');
        const looped = await Promise.all(
          racers.map(async (r) => (JSON.parse(await r.next()) as { won: string[] }).won),
        );
        for (const [i, won] of looped.entries()) wins[i]!.push(...won);
        for (const racer of racers) racer.send('exit');

        const all = keysOf([...LOCKSTEP_DATES, ...LOOP_DATES]);
        expect(wins.flat().sort()).toEqual([...all].sort());
        // The database agrees: every key posted once, on the first attempt, by its winner.
        const store = await backend.open({ keyring: newKeyring() });
        const rows = await store.db.selectFrom('digest_claims').selectAll().execute();
        expect(rows).toHaveLength(all.length);
        for (const row of rows) {
          expect(row).toMatchObject({ status: 'posted', attempt: 1, message_ts: row.owner });
          expect(wins[Number(row.owner.split('-')[1])]).toContain(
            `${row.slack_channel_id}/${row.local_date}`,
          );
        }
        console.info(
          `  ${backend.name}: wins per racer, lockstep ${lockstepWins.join('/')}, loop ${looped.map((w) => w.length).join('/')}`,
        );
      } finally {
        for (const racer of racers) racer.child.kill();
      }
    },
    RACER_TIMEOUT_MS + 30_000,
  );
});
