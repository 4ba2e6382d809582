/**
 * A card is a promise: every `supportedInterfaces` entry is answered at exactly its URL, or the server
 * does not start and says which entry and why. Interfaces on several ports of this host are each
 * served on their own port by `listen`; ones it cannot open are refused.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import {
  agentMaker,
  cardWith,
  freePort,
  get,
  jsonrpc,
  listenOn,
  rest,
  roundTrip,
} from './mount-fixture.js';

const agentWith = agentMaker();

test('§8.3 REST listed first on another port: listen serves it on that port, and JSON-RPC still answers on the main one', async () => {
  const restPort = await freePort();
  const agent = agentWith({
    card: (o) => cardWith([rest(`http://127.0.0.1:${restPort}/`), jsonrpc(`${o}/a2a/jsonrpc`)]),
  });
  const origin = await agent.listen(0);
  const urls = await roundTrip(origin);
  assert.deepEqual(urls, [`${origin}/a2a/jsonrpc`, `http://127.0.0.1:${restPort}/`]);
  const other = await get(`http://127.0.0.1:${restPort}/.well-known/agent-card.json`);
  assert.equal(other.status, 200, 'the card is found on every origin the server opened');
  assert.equal((await other.json()).name, 'mount-test');
  await agent.close(200);
  await assert.rejects(get(`http://127.0.0.1:${restPort}/`), 'close() closes the extra port too');
});

test('same origin, REST at "/" listed before JSON-RPC: the more specific path wins, both answer', async () => {
  const agent = agentWith({ card: (o) => cardWith([rest(`${o}/`), jsonrpc(`${o}/a2a/jsonrpc`)]) });
  const origin = await agent.listen(0);
  await roundTrip(origin);
});

test('an interface on another host: listen() rejects, naming the entry and the reason', async () => {
  const agent = agentWith({
    card: (o) =>
      cardWith([jsonrpc(`${o}/a2a/jsonrpc`), rest('http://agent.other.example:8080/a2a/rest')]),
  });
  await assert.rejects(agent.listen(0), (e: Error) => {
    assert.match(
      e.message,
      /supportedInterfaces\[1\] \(HTTP\+JSON at http:\/\/agent\.other\.example:8080\/a2a\/rest\)/,
    );
    assert.match(e.message, /on host agent\.other\.example, which this server cannot open/);
    return true;
  });
});

test('an https interface on another local port: listen() rejects, since it opens plain HTTP only', async () => {
  const agent = agentWith({
    card: (o) => cardWith([jsonrpc(`${o}/a2a/jsonrpc`), rest('https://127.0.0.1:8443/a2a/rest')]),
  });
  await assert.rejects(
    agent.listen(0),
    /supportedInterfaces\[1\] \(HTTP\+JSON at https:\/\/127\.0\.0\.1:8443\/a2a\/rest\) needs TLS on port 8443/,
  );
});

test('the port of another interface is taken: listen() rejects naming it, and releases the main port', async () => {
  const { port: busy } = await listenOn((_req, res) => void res.end('someone else'));
  let main = 0;
  const agent = agentWith({
    card: (o) => {
      main = Number(new URL(o).port);
      return cardWith([jsonrpc(`${o}/a2a/jsonrpc`), rest(`http://127.0.0.1:${busy}/a2a/rest`)]);
    },
  });
  await assert.rejects(
    agent.listen(0),
    new RegExp(`supportedInterfaces\\[1\\].*port ${busy} on 127\\.0\\.0\\.1 could not be opened`),
  );
  assert.ok(main > 0);
  // The main port was closed again: another server can take it.
  const again = createServer();
  await new Promise<void>((resolve, reject) => {
    again.once('error', reject);
    again.listen(main, '127.0.0.1', () => resolve());
  });
  await new Promise<void>((r) => again.close(() => r()));
});

test('a listener mounted in your own server with a card on two origins: prepare() rejects, naming the entry', async () => {
  const agent = agentWith({
    card: (o) => cardWith([jsonrpc(`${o}/a2a/jsonrpc`), rest('http://127.0.0.1:9/a2a/rest')]),
  });
  await assert.rejects(
    agent.prepare('http://127.0.0.1:8080'),
    /supportedInterfaces\[1\] \(HTTP\+JSON at http:\/\/127\.0\.0\.1:9\/a2a\/rest\) is on another origin .* mounted in your own server answers one origin/,
  );
});
