export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

export interface Logger {
  error(message: string, ...meta: unknown[]): void;
  warn(message: string, ...meta: unknown[]): void;
  info(message: string, ...meta: unknown[]): void;
  debug(message: string, ...meta: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/**
 * A logger writing to stderr at `level` and above, so stdout stays clean for what the CLI prints; with
 * `json`, one JSON object per line ({time, level, message}, what came with the message in `detail`).
 */
export function createLogger(level: LogLevel, json = false): Logger {
  const at = (wanted: LogLevel) => (message: string, ...meta: unknown[]) => {
    if (RANK[wanted] > RANK[level]) return;
    const time = new Date().toISOString();
    if (!json) console.error(`${time} ${wanted.toUpperCase()} ${message}`, ...meta);
    else console.error(JSON.stringify({ time, level: wanted, message, ...(meta.length > 0 && { detail: meta.map((m) => (m instanceof Error ? (m.stack ?? m.message) : typeof m === 'bigint' ? m.toString() : m)) }) }));
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

/**
 * `logger`, with a switch for its chatter (anvil_setLoggingEnabled): while off, info and debug
 * lines are dropped; warnings and errors always get through.
 */
export function switchable(logger: Logger): Logger & { setEnabled(on: boolean): void } {
  let enabled = true;
  return {
    error: (message, ...meta) => logger.error(message, ...meta),
    warn: (message, ...meta) => logger.warn(message, ...meta),
    info: (message, ...meta) => enabled && logger.info(message, ...meta),
    debug: (message, ...meta) => enabled && logger.debug(message, ...meta),
    setEnabled: (on) => {
      enabled = on;
    },
  };
}
