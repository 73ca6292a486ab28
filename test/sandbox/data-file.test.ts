import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closePlanningPools } from '../../src/planning/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { clientFor } from '../helpers/sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closePlanningPools();
});

describe('dataFile: the state survives a restart', () => {
  it('loads what was saved: data, ids, tokens, closed accounts', async () => {
    const file = join(dir, 'restart.json');
    const first = await startSandbox({ dataFile: file });
    const owner = clientFor(first, first.ownerToken);
    const team = await owner.teams.create({ teamName: 'Persistent' });
    const bot = await owner.serviceAccounts.create({ roleOrg: 'member', userName: 'Closed bot' });
    await owner.serviceAccounts.close(bot.id);
    await first.close();

    const second = await startSandbox({ dataFile: file, seed: 'demo' });
    try {
      expect(second.orgId).toBe(first.orgId);
      const again = clientFor(second, first.memberToken);
      expect((await again.teams.read(team.id)).teamName).toBe('Persistent');
      expect((await again.teams.listAll()).teams.map((t) => t.teamName)).not.toContain('Platform');
      const closed = await clientFor(second, bot.serviceToken as string)
        .account.read()
        .catch((e) => e);
      expect(closed.errorId).toBe('auth-api-expired');
      // New ids continue the saved counter: nothing collides with what was loaded.
      const next = await clientFor(second, second.ownerToken).teams.create({ teamName: 'After restart' });
      expect(next.id > team.id).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('writes atomically (no temporary file left) and readable by its owner only', async () => {
    const file = join(dir, 'atomic.json');
    const sandbox = await startSandbox({ dataFile: file });
    await clientFor(sandbox, sandbox.ownerToken).notions.create({ value: 'durability' });
    await sandbox.close();
    expect(readdirSync(dir).filter((name) => name.startsWith('atomic.json'))).toEqual(['atomic.json']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.values(saved.notions).map((n) => (n as { value: string }).value)).toContain('durability');
  });

  it('saves soon after a change, before close', async () => {
    const file = join(dir, 'debounced.json');
    const sandbox = await startSandbox({ dataFile: file });
    try {
      const team = await clientFor(sandbox, sandbox.ownerToken).teams.create({ teamName: 'Saved soon' });
      await expect
        .poll(() => JSON.parse(readFileSync(file, 'utf8')).teams[team.id]?.teamName, { timeout: 5_000 })
        .toBe('Saved soon');
    } finally {
      await sandbox.close();
    }
  });

  it('a file that is not sandbox state is refused with a clear error and left as it was', async () => {
    const file = join(dir, 'foreign.json');
    writeFileSync(file, '{"version": 2}');
    await expect(startSandbox({ dataFile: file })).rejects.toThrow(
      /foreign\.json is not a sandbox data file/,
    );
    writeFileSync(file, 'not json');
    await expect(startSandbox({ dataFile: file })).rejects.toThrow(/not JSON/);
    expect(readFileSync(file, 'utf8')).toBe('not json');
  });

  it('a new jwtSecret re-signs the saved tokens so the printed ones work', async () => {
    const file = join(dir, 'resigned.json');
    const first = await startSandbox({ dataFile: file, jwtSecret: 'first-secret-0123456789abcdef' });
    await first.close();
    const second = await startSandbox({ dataFile: file, jwtSecret: 'second-secret-0123456789abcdef' });
    try {
      expect(second.ownerToken).not.toBe(first.ownerToken);
      expect((await clientFor(second, second.ownerToken).account.read()).id).toBe(first.ownerId);
      expect(
        (
          await clientFor(second, first.ownerToken)
            .account.read()
            .catch((e) => e)
        ).errorId,
      ).toBe('jwt-issuer');
    } finally {
      await second.close();
    }
  });
});
