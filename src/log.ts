import { createConsola, LogLevels } from "consola";

/**
 * The process logger. Its level is fixed (INKPRESS_LOG_LEVEL overrides), because
 * consola's default goes quiet under NODE_ENV=test and the "listening" line must
 * always be printed.
 */
export const log = createConsola({
  level: process.env.INKPRESS_LOG_LEVEL ? Number(process.env.INKPRESS_LOG_LEVEL) : LogLevels.info,
});
