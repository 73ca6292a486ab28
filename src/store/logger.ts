/**
 * The little the store logs. Satisfied by pino and by Bolt's logger alike; messages are plain
 * strings and never carry a token, a key or a connection string.
 */
export interface StoreLogger {
  info(message: string): void;
  warn(message: string): void;
}

/** For callers that pass no logger. */
export const silentLogger: StoreLogger = { info() {}, warn() {} };
