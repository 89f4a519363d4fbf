/**
 * @akwe/cli: the developer commands as a library, for a program that offers them beside its own
 * (the server's `akwe` does), and the pieces of them other code reads with.
 */
export { developerCommands, type DeveloperCommandsOptions } from './developer-commands.js';
export { buildDeveloperCli, runDeveloperCli } from './main.js';
export { connectionFrom, isTestKey, DEFAULT_BASE_URL, type ApiConnection, type HintFor } from './api-connection.js';
export { EVENT_ID_HEADER, newListenSecret } from './listen.js';
export { cliStateDir, ListenPosition } from './listen-position.js';
export { SseParser, type SseMessage } from './server-sent-events.js';
export { table } from './output.js';
