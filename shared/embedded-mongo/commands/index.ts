import { adminCommands } from "./admin";
import { aggregate, count, distinct } from "./aggregate";
import { create, drop, dropDatabase, listCollections, listDatabases } from "./collections";
import type { Handler } from "./context";
import { del } from "./delete";
import { find, getMore, killCursors } from "./find";
import { findAndModify } from "./findAndModify";
import { createIndexes, dropIndexes, listIndexes } from "./indexes";
import { insert } from "./insert";
import { update } from "./update";

export type { CommandContext, Handler } from "./context";

/** Command name (the first field of the command document) -> handler. */
export const COMMANDS: Record<string, Handler> = {
  ...adminCommands,
  insert,
  find,
  getMore,
  killCursors,
  update,
  delete: del,
  findAndModify,
  findandmodify: findAndModify,
  aggregate,
  count,
  distinct,
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
  create,
  drop,
  listCollections,
  listDatabases,
  dropDatabase,
};
