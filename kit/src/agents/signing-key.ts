/**
 * The kit's card-signing key (§8.4): made once per work dir and kept there (private JWK, mode 0600),
 * with the public key set beside it for planners to trust. A planner elsewhere gets the JWKS file,
 * never the private key.
 */
import { randomBytes } from 'node:crypto';
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { CardSigningKey } from 'a2a-kit/server';

export interface KitSigningKey {
  key: CardSigningKey;
  /** Public key set to hand to planners (`--trust-jwks`). */
  jwksFile: string;
}

async function writeAtomically(file: string, text: string, mode: number): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode });
  await chmod(tmp, mode);
  await rename(tmp, file);
}

export async function loadOrCreateSigningKey(workDir: string): Promise<KitSigningKey> {
  const keyFile = path.join(workDir, 'card-signing-key.jwk');
  const jwksFile = path.join(workDir, 'card-signing-jwks.json');
  let jwk: JWK;
  try {
    jwk = JSON.parse(await readFile(keyFile, 'utf8')) as JWK;
  } catch {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    jwk = {
      ...(await exportJWK(privateKey)),
      kid: `kit-${randomBytes(4).toString('hex')}`,
      alg: 'ES256',
    };
    await writeAtomically(keyFile, JSON.stringify(jwk), 0o600);
  }
  const { d: _private, ...publicJwk } = jwk;
  await writeAtomically(
    jwksFile,
    JSON.stringify({ keys: [{ ...publicJwk, use: 'sig' }] }, null, 2),
    0o644,
  );
  const privateKey = await importJWK(jwk, 'ES256');
  return { key: { privateKey: privateKey as CryptoKey, kid: jwk.kid!, alg: 'ES256' }, jwksFile };
}
