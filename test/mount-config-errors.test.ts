/**
 * Configuration errors are one class, `A2AConfigError`, naming the option to change: thrown when the
 * server is made or prepared where that is possible, and logged at error level (with a 500 that says
 * what to change) when it can only surface on a request.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { A2AConfigError, createAgentServer, staticBearerTokens } from '../src/server/index.js';
import { a2aExpress } from '../src/server/adapters/express.js';
import {
  agentMaker,
  bothBindings,
  cardWith,
  get,
  listenOn,
  options,
  recordingLogger,
} from './mount-fixture.js';

const agent = agentMaker();

/** `fn` throws (or rejects with) an A2AConfigError naming `option`, its message matching `message`. */
async function configError(fn: () => unknown, option: string, message: RegExp): Promise<void> {
  let thrown: unknown;
  try {
    await fn();
  } catch (err) {
    thrown = err;
  }
  assert.ok(thrown instanceof A2AConfigError, `an A2AConfigError, got ${String(thrown)}`);
  assert.equal(thrown.option, option);
  assert.match(thrown.message, message);
}

test('options that cannot work throw at construction, naming the option', async () => {
  await configError(
    () => createAgentServer(options({ origin: 'agent.example.com' })),
    'origin',
    /origin must be an absolute URL/,
  );
  await configError(
    () => createAgentServer(options({ origin: 'https://agent.example.com/path' })),
    'origin',
    /just scheme, host and port/,
  );
  await configError(
    () => createAgentServer(options({ allowedHosts: ['agent.example.com/x'] })),
    'allowedHosts',
    /host names/,
  );
  await configError(
    () => createAgentServer(options({ trustedProxies: ['proxy.internal'] })),
    'trustedProxies',
    /"proxy\.internal"/,
  );
  await configError(
    () => createAgentServer(options({ trustedProxies: ['10.0.0.0/33'] })),
    'trustedProxies',
    /CIDR/,
  );
  await configError(
    () => createAgentServer(options({ drain: { deadlineMs: -1 } })),
    'drain.deadlineMs',
    /whole number/,
  );
  await configError(
    () => a2aExpress(createAgentServer(options())),
    'origin',
    /no origin was given/,
  );
});

test('prepare() and listen() reject with the option or card entry to change', async () => {
  const invalid = agent({ card: () => ({ name: 'x' }) as never });
  await configError(() => invalid.prepare('http://127.0.0.1:1'), 'card', /not valid/);
  const elsewhere = agent({
    card: (base) =>
      cardWith([{ ...bothBindings(base).supportedInterfaces[0]!, protocolBinding: 'SOAP' }]),
  });
  await configError(() => elsewhere.listen(0), 'card', /supportedInterfaces\[0\] lists SOAP/);
  const mismatched = agent({ auth: { verifiers: { bearer: staticBearerTokens({ t: 'ci' }) } } });
  await configError(
    () => mismatched.prepare('http://127.0.0.1:1'),
    'auth.verifiers',
    /matches no securitySchemes entry/,
  );
});

test('a card function that throws: a 500 that names the card, and the cause at error level in the log', async () => {
  const logger = recordingLogger();
  const a = agent({
    logger,
    origin: 'http://127.0.0.1:1',
    card: () => {
      throw new Error('secret-db-host unreachable');
    },
  });
  const { origin } = await listenOn(a.listener);
  for (let i = 0; i < 2; i++) {
    const r = await get(`${origin}/.well-known/agent-card.json`);
    assert.equal(r.status, 500);
    const body = await r.text();
    assert.match(body, /the card function threw/);
    assert.doesNotMatch(body, /secret-db-host/, 'the cause stays in the log');
  }
  assert.equal(logger.errors.length, 1, 'logged once, not on every request');
  assert.match(logger.errors[0]!, /agent server cannot serve: the card function threw/);
});
