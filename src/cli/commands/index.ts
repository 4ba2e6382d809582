/**
 * The command table of `a2a`: one module per command. A new command (e.g. `a2a inspect`) is a
 * module exporting a {@link Command} and one line here; help, parsing and suggestions follow.
 */
import type { Command } from '../command.js';
import { cancel } from './cancel.js';
import { card } from './card.js';
import { dbMigrate } from './db-migrate.js';
import { get } from './get.js';
import { inspect } from './inspect.js';
import { list } from './list.js';
import { pushListen } from './push-listen.js';
import { send } from './send.js';
import { subscribe } from './subscribe.js';

/** Every command, in the order `a2a --help` lists them. */
export const COMMANDS: readonly Command[] = [
  card,
  send,
  get,
  list,
  cancel,
  subscribe,
  pushListen,
  inspect,
  dbMigrate,
];
