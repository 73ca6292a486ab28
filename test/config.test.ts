import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PLANNING_API_URL, loadConfig, slackMode } from '../src/config.js';

const key = randomBytes(32).toString('base64');
const single = {
  SLACK_SIGNING_SECRET: 'signing-secret-value',
  SLACK_BOT_TOKEN: 'xoxb-secret-bot',
  ENCRYPTION_KEY: key,
};

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected the configuration to be refused');
}

describe('loadConfig', () => {
  it('accepts a single-workspace HTTP setup and fills the defaults', () => {
    const config = loadConfig(single);
    expect(config).toMatchObject({
      PLANNING_API_URL: DEFAULT_PLANNING_API_URL,
      DATA_DIR: './data',
      PORT: 3000,
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      ENCRYPTION_KEYS_PREVIOUS: [],
    });
    expect(slackMode(config)).toEqual({ transport: 'http', install: 'single' });
  });

  it('bounds PostgreSQL connect and query time (5 s by default), refusing nonsense', () => {
    expect(loadConfig(single)).toMatchObject({
      DATABASE_CONNECT_TIMEOUT_MS: 5_000,
      DATABASE_QUERY_TIMEOUT_MS: 5_000,
    });
    expect(
      loadConfig({ ...single, DATABASE_CONNECT_TIMEOUT_MS: '1500', DATABASE_QUERY_TIMEOUT_MS: '30000' }),
    ).toMatchObject({ DATABASE_CONNECT_TIMEOUT_MS: 1_500, DATABASE_QUERY_TIMEOUT_MS: 30_000 });
    const refused = problems({
      ...single,
      DATABASE_CONNECT_TIMEOUT_MS: 'soon',
      DATABASE_QUERY_TIMEOUT_MS: '0',
    });
    expect(refused.some((p) => p.startsWith('DATABASE_CONNECT_TIMEOUT_MS'))).toBe(true);
    expect(refused.some((p) => p.startsWith('DATABASE_QUERY_TIMEOUT_MS'))).toBe(true);
  });

  it('watches every 5 minutes by default; 0 turns the watch off; anything else below a minute is refused', () => {
    expect(loadConfig(single).WATCH_INTERVAL_MS).toBe(300_000);
    expect(loadConfig({ ...single, WATCH_INTERVAL_MS: '0' }).WATCH_INTERVAL_MS).toBe(0);
    expect(loadConfig({ ...single, WATCH_INTERVAL_MS: '120000' }).WATCH_INTERVAL_MS).toBe(120_000);
    for (const bad of ['5000', '-1', '90000000', 'often', '60000.5'])
      expect(problems({ ...single, WATCH_INTERVAL_MS: bad })).toEqual([
        expect.stringMatching(/^WATCH_INTERVAL_MS /),
      ]);
    expect(problems({ ...single, WATCH_INTERVAL_MS: '5000' })[0]).toContain(
      'must be 0 (the watch off) or from 60000 (a minute) to 86400000 (a day)',
    );
  });

  it('treats empty variables (as left in .env) as unset', () => {
    const config = loadConfig({ ...single, PORT: '', SLACK_API_URL: '  ', DATABASE_URL: '' });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('recognises OAuth and Socket Mode', () => {
    const oauth = loadConfig({
      SLACK_SIGNING_SECRET: 's',
      SLACK_CLIENT_ID: 'id',
      SLACK_CLIENT_SECRET: 'secret',
      SLACK_STATE_SECRET: 'state',
      ENCRYPTION_KEY: key,
    });
    expect(slackMode(oauth)).toEqual({ transport: 'http', install: 'oauth' });
    const socket = loadConfig({
      SLACK_SOCKET_MODE: 'true',
      SLACK_APP_TOKEN: 'xapp-1',
      SLACK_BOT_TOKEN: 'xoxb-1',
      ENCRYPTION_KEY: key,
    });
    expect(slackMode(socket)).toEqual({ transport: 'socket', install: 'single' });
  });

  it('names each missing variable', () => {
    const found = problems({});
    expect(found.some((p) => p.startsWith('SLACK_SIGNING_SECRET'))).toBe(true);
    expect(found.some((p) => p.startsWith('SLACK_BOT_TOKEN'))).toBe(true);
    expect(found.some((p) => p.startsWith('ENCRYPTION_KEY'))).toBe(true);
    expect(problems({ ...single, SLACK_CLIENT_ID: 'id' }).filter((p) => p.includes('OAuth'))).toHaveLength(2);
    expect(
      problems({ SLACK_SOCKET_MODE: 'true', SLACK_BOT_TOKEN: 'xoxb-1', ENCRYPTION_KEY: key })[0],
    ).toMatch(/^SLACK_APP_TOKEN/);
  });

  it('refuses bad values without echoing a secret', () => {
    const secret = 'not-a-real-bot-token-value';
    const found = problems({
      ...single,
      SLACK_BOT_TOKEN: secret,
      ENCRYPTION_KEY: 'c2hvcnQ=',
      PORT: 'eighty',
      DATABASE_URL: 'mysql://u:hunter2@db/x',
      PLANNING_API_URL: 'ftp://x',
      LOG_LEVEL: 'loud',
    });
    const text = found.join('\n');
    for (const name of [
      'SLACK_BOT_TOKEN',
      'ENCRYPTION_KEY',
      'PORT',
      'DATABASE_URL',
      'PLANNING_API_URL',
      'LOG_LEVEL',
    ]) {
      expect(text).toContain(name);
    }
    expect(text).not.toContain(secret);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('c2hvcnQ=');
  });

  it('takes the web app link templates with their placeholders, and refuses one that cannot be a link', () => {
    const feature = 'https://plan.example.com/t/{teamId}/c/{channelId}/f/{featureId}';
    const task = `${feature}/tasks/{taskId}`;
    expect(
      loadConfig({ ...single, PLANNING_WEB_FEATURE_URL: feature, PLANNING_WEB_TASK_URL: task }),
    ).toMatchObject({ PLANNING_WEB_FEATURE_URL: feature, PLANNING_WEB_TASK_URL: task });
    expect(loadConfig(single).PLANNING_WEB_TASK_URL).toBeUndefined();
    const refused = (name: string, value: string) => problems({ ...single, [name]: value }).join('\n');
    expect(refused('PLANNING_WEB_TASK_URL', feature)).toMatch(
      /PLANNING_WEB_TASK_URL must contain each of \{teamId\}, \{channelId\}, \{featureId\}, \{taskId\} exactly once/,
    );
    expect(refused('PLANNING_WEB_FEATURE_URL', `${feature}/{taskId}`)).toMatch(
      /unknown placeholders: \{taskId\}/,
    );
    expect(refused('PLANNING_WEB_FEATURE_URL', feature.replace('https', 'ftp'))).toMatch(
      /must be an http\(s\) URL/,
    );
    expect(
      refused('PLANNING_WEB_FEATURE_URL', 'https://{teamId}.example.com/{channelId}/{featureId}'),
    ).toMatch(/host without placeholders/);
  });

  it('allows a missing ENCRYPTION_KEY only in development', () => {
    const { ENCRYPTION_KEY: _unused, ...withoutKey } = single;
    expect(loadConfig({ ...withoutKey, NODE_ENV: 'development' }).ENCRYPTION_KEY).toBeUndefined();
    expect(problems(withoutKey)[0]).toMatch(/^ENCRYPTION_KEY is required outside development/);
  });

  it('accepts the sandbox and previous keys for rotation', () => {
    const previous = randomBytes(32).toString('base64');
    const config = loadConfig({
      ...single,
      PLANNING_API_URL: 'sandbox',
      ENCRYPTION_KEYS_PREVIOUS: ` ${previous} ,`,
    });
    expect(config.PLANNING_API_URL).toBe('sandbox');
    expect(config.ENCRYPTION_KEYS_PREVIOUS).toEqual([previous]);
    expect(problems({ ...single, ENCRYPTION_KEYS_PREVIOUS: 'short' })[0]).toMatch(
      /^ENCRYPTION_KEYS_PREVIOUS/,
    );
  });
});
