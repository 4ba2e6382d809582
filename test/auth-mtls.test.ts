import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentServer, mutualTls } from '../src/server/index.js';
import { baseCard, say } from './auth-fixture.js';
import { commandMissing } from './service-fixture.js';

const noOpenssl = commandMissing('openssl', 'openssl');

/** A throwaway CA, a server certificate for 127.0.0.1, a client certificate it signed, and a stranger's. */
function pki(dir: string) {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  ssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    '/CN=test-ca',
  );
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  for (const name of ['server', 'client']) {
    ssl(
      'req',
      ...ec,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      `/CN=${name === 'client' ? 'agent-b' : 'localhost'}`,
    );
    const ext = name === 'server' ? ['-extfile', 'san.ext'] : [];
    ssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '1',
      ...ext,
    );
  }
  ssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'stranger.key',
    '-out',
    'stranger.crt',
    '-days',
    '1',
    '-subj',
    '/CN=agent-b',
  );
  const read = (f: string) => readFileSync(join(dir, f));
  return { read };
}

test(
  'mutualTls: a CA-signed client certificate names the caller; none or an untrusted one → 401',
  { skip: noOpenssl },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-mtls-'));
    const { read } = pki(dir);
    const agent = createAgentServer({
      executor: (ctx, task) => task.reply(`hello ${ctx.caller?.id} via ${ctx.caller?.scheme}`),
      card: (origin) => ({
        ...baseCard(origin),
        supportedInterfaces: [
          { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        securitySchemes: { tls: { mtlsSecurityScheme: {} } },
        securityRequirements: [{ schemes: { tls: { list: [] } } }],
      }),
      auth: { verifiers: { tls: mutualTls((cert) => ({ id: `cn:${cert.subject.CN}` })) } },
    });
    const server = createServer(
      {
        key: read('server.key'),
        cert: read('server.crt'),
        ca: read('ca.crt'),
        requestCert: true,
        rejectUnauthorized: false,
      },
      agent.listener,
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await agent.prepare(origin);

    const send = (client?: 'client' | 'stranger') =>
      new Promise<{ status: number; challenge: string | undefined; body: any }>(
        (resolve, reject) => {
          const body = JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'SendMessage',
            params: say('x'),
          });
          const req = request(
            `${origin}/a2a/jsonrpc`,
            {
              method: 'POST',
              ca: read('ca.crt'),
              agent: false,
              headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
              ...(client ? { key: read(`${client}.key`), cert: read(`${client}.crt`) } : {}),
            },
            (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (c: string) => (text += c));
              res.on('end', () =>
                resolve({
                  status: res.statusCode ?? 0,
                  challenge: res.headers['www-authenticate'],
                  body: JSON.parse(text),
                }),
              );
            },
          );
          req.on('error', reject);
          req.end(body);
        },
      );
    try {
      const good = await send('client');
      assert.equal(good.status, 200);
      assert.equal(good.body.result.message.parts[0].text, 'hello cn:agent-b via tls');

      const none = await send();
      assert.equal(none.status, 401);
      assert.equal(none.challenge, 'MutualTLS realm="Guarded \\"agent\\""');
      assert.match(none.body.error.message, /trusted TLS client certificate/);

      const stranger = await send('stranger');
      assert.equal(stranger.status, 401);
      assert.match(stranger.body.error.message, /not trusted/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await agent.close(100);
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
