import { createConsola, LogLevels } from "consola";

/**
 * The process logger. Its level is fixed, because consola's default goes quiet under
 * NODE_ENV=test and the "listening" line must always be printed; the CLI sets the level of
 * INKPRESS_LOG_LEVEL (settings.ts) once it has checked it.
 */
export const log = createConsola({ level: LogLevels.info });
