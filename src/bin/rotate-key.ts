/**
 * `npm run rotate-key`: after ENCRYPTION_KEY changed (the old key moved to
 * ENCRYPTION_KEYS_PREVIOUS), rewrites every stored secret under the new key. Once it reports
 * done, the old key can be dropped from ENCRYPTION_KEYS_PREVIOUS. Safe to run again, and while the
 * app runs.
 */
import { loadConfig, loadDotEnv } from '../config.js';
import { openStore, resolveKeyring, type StoreLogger } from '../store/index.js';

const logger: StoreLogger = {
  info: (message) => console.error(message),
  warn: (message) => console.error(`warning: ${message}`),
};

async function main(): Promise<void> {
  // The same configuration as `npm start`, which reads .env too.
  loadDotEnv();
  const config = loadConfig();
  const keyring = resolveKeyring(config, logger);
  const store = await openStore({
    ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
    dataDir: config.DATA_DIR,
    keyring,
    logger,
  });
  try {
    const { rows, byTable } = await store.reencryptAll();
    const detail = Object.entries(byTable)
      .map(([table, count]) => `${table} ${count}`)
      .join(', ');
    console.log(
      `Re-encrypted ${rows} row(s) under key ${keyring.currentKeyId} (${store.backend}): ${detail}`,
    );
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  // Config and decryption errors name the variable or key id, never a secret.
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
