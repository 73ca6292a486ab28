/**
 * The process guard, in a process of its own: a rejection nobody handles is logged on one line
 * without its secret, and the process goes on to finish its work (exit 0) instead of dying (exit 1).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = `
import { createLogger } from './src/logger.ts';
import { guardProcess } from './src/app/index.ts';
guardProcess(createLogger({ level: 'info' }));
Promise.reject(new Error('lost connection, token xoxb-guard-secret-123'));
setTimeout(() => { process.stdout.write('still serving\\n'); }, 0);
`;

function runScript(source: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], {
    cwd: fileURLToPath(new URL('../', import.meta.url)),
    env: { PATH: process.env.PATH },
    timeout: 90_000,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    err += chunk;
  });
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, out, err })),
  );
}

describe('guardProcess', () => {
  it('logs an unhandled rejection on one line without secrets, and the process keeps running', async () => {
    const { code, out, err } = await runScript(SCRIPT);
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines).toContain('still serving');
    const logged = JSON.parse(lines.find((l) => l.startsWith('{'))!) as {
      msg: string;
      err: { message: string };
    };
    expect(logged.msg).toBe('unhandled promise rejection; the process keeps serving');
    expect(logged.err.message).toContain('lost connection');
    expect(out).not.toContain('xoxb-guard-secret-123');
  }, 120_000);

  it('without the guard the same script dies (the test above can fail)', async () => {
    const { code } = await runScript(SCRIPT.replace(/^guardProcess.*$/m, ''));
    expect(code).toBe(1);
  }, 120_000);
});
