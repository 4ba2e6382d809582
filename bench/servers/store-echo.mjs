/**
 * The echo agent on one task store, for bench/store-pg.mjs: ours (BENCH_IMPL=ours) on memory, SQLite or
 * PostgreSQL (BENCH_STORE = memory | sqlite:FILE | postgres://…), or @a2a-js/sdk 1.3 (BENCH_IMPL=sdk) on
 * its DatabaseTaskStore (kysely + pg) at BENCH_STORE. Every statement sent to PostgreSQL is counted
 * (pg.Client#query is wrapped before any pool exists): { cmd: 'queries' } answers the count so far.
 */
import pg from 'pg';
import { echo, echoCard, report } from './harness.mjs';

let queries = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  queries++;
  return query.apply(this, args);
};
process.on('message', (m) => m?.cmd === 'queries' && process.send({ cmd: 'queries', queries }));

const impl = process.env.BENCH_IMPL ?? 'ours';
const target = process.env.BENCH_STORE ?? 'memory';
const POOL = 10;

if (impl === 'ours') {
  const dist = new URL('../../dist/', import.meta.url).href;
  const { createAgentServer } = await import(`${dist}server/index.js`);
  let store;
  if (target.startsWith('sqlite:'))
    store = new (await import(`${dist}server/store/sqlite.js`)).SqliteTaskStore({
      path: target.slice(7),
    });
  else if (target.startsWith('postgres'))
    store = (await import(`${dist}server/store/postgres/index.js`)).postgresStore(target, {
      schema: 'a2a',
      pool: { max: POOL },
    });
  const server = createAgentServer({
    executor: echo,
    card: (origin) => echoCard(origin),
    ...(store ? { store } : {}),
  });
  report(await server.listen(0));
} else {
  const { default: express } = await import('express');
  const { DefaultRequestHandler } = await import('@a2a-js/sdk/server');
  const { sdkEcho, sdkEchoCard } = await import('./sdk-echo.mjs');
  const { UserBuilder, jsonRpcHandler } = await import('@a2a-js/sdk/server/express');
  const { DatabaseTaskStore } = await import('@a2a-js/sdk/server/database');
  const { Kysely, PostgresDialect } = await import('kysely');
  const db = new Kysely({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: target, max: POOL }) }),
  });
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const card = sdkEchoCard([
    { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ]);
  const handler = new DefaultRequestHandler(card, new DatabaseTaskStore(db), sdkEcho);
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  report(origin);
}
