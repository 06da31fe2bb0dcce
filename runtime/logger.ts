// The process's logger: JSON lines on stdout at LOG_LEVEL (default info). Its own module, so a process that only
// supervises (bin/start.ts) logs without loading the server.
import pino, { type Logger } from 'pino';

export function createLogger(): Logger {
  return pino({ level: process.env.LOG_LEVEL ?? 'info', base: undefined });
}
