/**
 * The environment, validated once at start-up. A bad or missing value stops the process with a
 * message naming the variable; a secret's value is never echoed.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { DEFAULT_POST_LIMITS } from './limits.js';
import { DEFAULT_MAX_CONNECTIONS } from './planning/transport.js';
import { type WebLinkKind, type WebLinkTemplates, webLinkTemplateProblem } from './planning/web-links.js';

export const DEFAULT_PLANNING_API_URL = 'https://api.kronup.com/v1';
export const DEFAULT_SLACK_API_URL = 'https://slack.com/api/';
/** How often the watch looks at each linked channel (src/watch/), ms: 5 minutes. */
export const DEFAULT_WATCH_INTERVAL_MS = 300_000;

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A 32-byte key, base64 encoded. */
const base64Key = z
  .string()
  .trim()
  .refine(
    (v) => Buffer.from(v, 'base64').length === 32,
    'must be 32 bytes, base64 encoded (openssl rand -base64 32)',
  );

/** A link template of the service's web app (planning/web-links.ts); unset: no such links. */
const webLinkTemplate = (kind: WebLinkKind) =>
  optionalText.superRefine((v, ctx) => {
    const problem = v === undefined ? undefined : webLinkTemplateProblem(kind, v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** The web app's link templates: also read alone by `npm run manifest` (scripts/manifest.ts). */
const webLinksSchema = z.object({
  /** The web app's page of a feature: `https://…{teamId}…{channelId}…{featureId}` (cards' Open, unfurls). */
  PLANNING_WEB_FEATURE_URL: webLinkTemplate('feature'),
  /** The web app's page of a task: the feature's placeholders and `{taskId}`. */
  PLANNING_WEB_TASK_URL: webLinkTemplate('task'),
});

/** A DNS name (labels of letters, digits and hyphens). */
const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    SLACK_SIGNING_SECRET: optionalText,
    SLACK_BOT_TOKEN: optionalText.refine(
      (v) => v === undefined || v.startsWith('xoxb-'),
      'must start with xoxb-',
    ),
    SLACK_APP_TOKEN: optionalText.refine(
      (v) => v === undefined || v.startsWith('xapp-'),
      'must start with xapp-',
    ),
    SLACK_SOCKET_MODE: flag,
    SLACK_CLIENT_ID: optionalText,
    SLACK_CLIENT_SECRET: optionalText,
    SLACK_STATE_SECRET: optionalText,
    SLACK_API_URL: z.url({ protocol: /^https?$/ }).default(DEFAULT_SLACK_API_URL),
    /** Messages (chat.postMessage, chat.update) posted per minute per workspace, by this process. */
    SLACK_POSTS_PER_MINUTE: z.coerce
      .number()
      .int()
      .min(1)
      .max(60_000)
      .default(DEFAULT_POST_LIMITS.perWorkspacePerMinute),
    /** Least time between two messages posted in one channel, ms (Slack: about one a second). */
    SLACK_CHANNEL_POST_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(0)
      .max(60_000)
      .default(DEFAULT_POST_LIMITS.channelIntervalMs),
    PLANNING_API_URL: z
      .union([z.literal('sandbox'), z.url({ protocol: /^https?$/ })])
      .default(DEFAULT_PLANNING_API_URL),
    PLANNING_ADMIN_TOKEN: optionalText,
    /**
     * The planning assistant's model, optional: an OpenAI-compatible chat-completions endpoint (its
     * base URL, e.g. https://api.openai.com/v1), the model's name and the key it wants. Unset: the
     * assistant answers without any model.
     */
    ASSISTANT_MODEL_URL: z.url({ protocol: /^https?$/ }).optional(),
    ASSISTANT_MODEL: optionalText,
    ASSISTANT_MODEL_KEY: optionalText,
    /** How long one answer of the model may take, tool calls included, ms. */
    ASSISTANT_MODEL_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
    ...webLinksSchema.shape,
    /** Sockets open at once to the planning service; calls beyond it wait for a free one. */
    PLANNING_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_MAX_CONNECTIONS),
    DATABASE_URL: optionalText.refine(
      (v) => v === undefined || /^postgres(ql)?:\/\//.test(v),
      'must be a postgres:// URL (leave unset for the embedded SQLite store)',
    ),
    /** PostgreSQL: how long opening a connection may take before the request fails. */
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
    /** PostgreSQL: how long one statement may run, or the server may stay silent, before it fails. */
    DATABASE_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    ENCRYPTION_KEY: base64Key.optional(),
    /** Earlier keys, comma separated: still read, never written with. */
    ENCRYPTION_KEYS_PREVIOUS: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? '')
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      )
      .pipe(z.array(base64Key)),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** The address HTTP servers bind (the app's, the metrics'); unset: every interface. */
    HOST: optionalText.refine(
      (v) => v === undefined || z.union([z.ipv4(), z.ipv6()]).safeParse(v).success || HOSTNAME.test(v),
      'must be an IP address or a host name (e.g. 127.0.0.1, ::1, localhost)',
    ),
    /** /metrics on its own port (unset: only on PORT, and there only with METRICS_TOKEN). */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** Bearer token /metrics wants (on PORT always; on METRICS_PORT when set). */
    METRICS_TOKEN: optionalText.refine(
      (v) => v === undefined || (v.length >= 16 && !/\s/.test(v)),
      'must be at least 16 characters, without spaces (openssl rand -hex 32)',
    ),
    /**
     * On a stop, how long the app keeps serving with /readyz answering 503 before it closes its
     * port: the time a load balancer needs to see it and send nothing more.
     */
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(300_000).default(0),
    /**
     * How often the watch reads each linked channel's features, ms; 0 turns the watch off for the
     * deployment. Links are looked at on the minute tick, so a minute is the least.
     */
    WATCH_INTERVAL_MS: z.coerce
      .number()
      .int('must be a whole number of milliseconds')
      .refine(
        (v) => v === 0 || (v >= 60_000 && v <= 86_400_000),
        'must be 0 (the watch off) or from 60000 (a minute) to 86400000 (a day)',
      )
      .default(DEFAULT_WATCH_INTERVAL_MS),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  })
  .superRefine((env, ctx) => {
    const need = (name: keyof typeof env, why: string) => {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `is required ${why}` });
    };
    const oauth = Boolean(env.SLACK_CLIENT_ID || env.SLACK_CLIENT_SECRET || env.SLACK_STATE_SECRET);
    if (env.SLACK_SOCKET_MODE) need('SLACK_APP_TOKEN', 'when SLACK_SOCKET_MODE=true');
    else need('SLACK_SIGNING_SECRET', 'to verify requests in HTTP mode (or set SLACK_SOCKET_MODE=true)');
    if (oauth) {
      need('SLACK_CLIENT_ID', 'for the OAuth install');
      need('SLACK_CLIENT_SECRET', 'for the OAuth install');
      need('SLACK_STATE_SECRET', 'for the OAuth install');
    } else {
      need(
        'SLACK_BOT_TOKEN',
        'in single-workspace mode (or set SLACK_CLIENT_ID/SECRET/STATE_SECRET for OAuth)',
      );
    }
    if (env.ASSISTANT_MODEL_URL || env.ASSISTANT_MODEL) {
      need('ASSISTANT_MODEL_URL', 'with ASSISTANT_MODEL (the model the assistant asks)');
      need('ASSISTANT_MODEL', 'with ASSISTANT_MODEL_URL (the model the assistant asks)');
    }
    if (!env.ENCRYPTION_KEY && env.NODE_ENV !== 'development') {
      ctx.addIssue({
        code: 'custom',
        path: ['ENCRYPTION_KEY'],
        message: 'is required outside development (NODE_ENV=development creates a local key file)',
      });
    }
  });

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** `env` through `schema`; throws {@link ConfigError} naming each bad variable. */
function parseEnv<T>(schema: z.ZodType<T>, env: NodeJS.ProcessEnv): T {
  // A variable left empty in .env means "not set", so defaults apply.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  // Only the variable's name and the rule it broke: zod's messages never carry the input value.
  throw new ConfigError(
    parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'} ${issue.message}`),
  );
}

/** Validates the environment; throws {@link ConfigError} naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return parseEnv(envSchema, env);
}

/** The web app's link templates alone (`npm run manifest`); throws {@link ConfigError}. */
export function loadWebLinks(env: NodeJS.ProcessEnv = process.env): WebLinkTemplates {
  return webLinkTemplates(parseEnv(webLinksSchema, env));
}

/** The web app's link templates the deployment set (none: no Open links, no unfurls). */
export function webLinkTemplates(
  config: Pick<Config, 'PLANNING_WEB_FEATURE_URL' | 'PLANNING_WEB_TASK_URL'>,
): WebLinkTemplates {
  return {
    ...(config.PLANNING_WEB_FEATURE_URL ? { feature: config.PLANNING_WEB_FEATURE_URL } : {}),
    ...(config.PLANNING_WEB_TASK_URL ? { task: config.PLANNING_WEB_TASK_URL } : {}),
  };
}

/** Which way the app talks to Slack, derived from the configuration. */
export function slackMode(config: Config): { transport: 'http' | 'socket'; install: 'single' | 'oauth' } {
  return {
    transport: config.SLACK_SOCKET_MODE ? 'socket' : 'http',
    install: config.SLACK_CLIENT_ID ? 'oauth' : 'single',
  };
}

/** Whether any Slack variable is set (non-empty): then the app talks to a real Slack. */
export function hasSlackVariables(env: NodeJS.ProcessEnv): boolean {
  return Object.entries(env).some(
    ([name, value]) => name.startsWith('SLACK_') && (value ?? '').trim() !== '',
  );
}

/**
 * How `npm start` starts: the local playground (the app, the sandbox and a page playing Slack)
 * when no Slack variable is set at all — unless NODE_ENV=production is set explicitly, so that a
 * deployment missing its variables stops instead of turning into a playground.
 */
export function startMode(env: NodeJS.ProcessEnv): 'app' | 'playground' {
  if (hasSlackVariables(env)) return 'app';
  return env.NODE_ENV?.trim() === 'production' ? 'app' : 'playground';
}

/** Said when a start without Slack variables is refused (NODE_ENV=production). */
export const PLAYGROUND_HINT =
  'To try the app without a Slack workspace, start the local playground: `npm run playground`\n' +
  '(`npm start` starts it by itself when no SLACK_* variable is set and NODE_ENV is not production).';

/** Reads ./.env into the environment when there is one (variables already set win). */
export function loadDotEnv(): void {
  if (existsSync('.env')) process.loadEnvFile('.env');
}
