/**
 * The parts of `@grpc/grpc-js` (an optional peer dependency) this entry point uses as values, loaded
 * once: without the package, importing `a2a-kit/server/grpc-js` fails with a message that names it and
 * the command that installs it, rather than Node's error about a file inside a2a-kit.
 */
import type * as grpc from '@grpc/grpc-js';
import { importPeer } from '../../protocol/peer.js';

const mod = await importPeer(
  () => import('@grpc/grpc-js'),
  '@grpc/grpc-js',
  'a2a-kit/server/grpc-js',
);

/** grpc-js's call metadata class. */
export const Metadata = mod.Metadata;
/** grpc-js's call metadata. */
export type Metadata = grpc.Metadata;
/** grpc-js's status codes. */
export const status = mod.status;
