/**
 * `a2a db migrate <postgres-url>`: apply the PostgreSQL task store's pending schema migrations, for
 * operators who migrate before deploying (servers otherwise migrate at start). Prints what it applied.
 */
import type { Command, CommandContext } from '../command.js';
import { CliExit, EXIT } from '../exit-codes.js';

/** The `db migrate` command. */
export const dbMigrate: Command = {
  name: 'db migrate',
  summary: "apply the PostgreSQL task store's pending schema migrations",
  usage: '<postgres-url>',
  positionals: { min: 1, max: 1 },
  agent: false,
  options: {
    schema: { type: 'string', value: 'NAME', help: 'schema holding the tables (default: public)' },
  },
  details: [
    'Safe to run from several places at once (an advisory lock serialises them); needs the package pg.',
  ],
  examples: [
    'a2a db migrate postgres://app@127.0.0.1:5432/agents',
    'a2a db migrate "$DATABASE_URL" --schema a2a',
  ],
  run: async (ctx: CommandContext) => {
    const [url] = ctx.args.positionals as [string];
    const schema = ctx.args.str('schema');
    // Loaded here: pg is an optional dependency that only this command needs.
    const { migrate } = await import('a2a-kit/server/postgres');
    // Where it goes, without the credentials the URL may carry.
    let target = 'the database';
    try {
      const u = new URL(url);
      target = `${u.host}${u.pathname}`;
    } catch {
      // pg reads some strings URL does not; migrate() reports those with the password masked.
    }
    ctx.term.waiting(`migrating ${target}`);
    let applied;
    try {
      applied = await migrate(url, schema ? { schema } : {});
    } catch (err) {
      // The database, not an agent: say so (the message names the URL with its password masked).
      if ((err as { kind?: string }).kind === 'Unavailable') {
        throw new CliExit(EXIT.UNREACHABLE, (err as Error).message, [
          'start PostgreSQL, or check the host, port and database in the URL',
        ]);
      }
      throw err;
    } finally {
      ctx.term.done();
    }
    if (ctx.json) ctx.term.json({ applied });
    else if (applied.length === 0) ctx.term.line(`${target}: schema is up to date`);
    else for (const m of applied) ctx.term.line(`applied ${m.version}: ${m.name}`);
    return EXIT.OK;
  },
};
